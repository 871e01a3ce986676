package io.tributary.devstack.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One Redis command over a plain socket, without a client library: for what must not depend on one (the clean
 * SHUTDOWN of {@link EmbeddedRedisServer}, commands tests send to the server itself, a check of what an
 * unauthenticated client is told). The URL's user information, if any, is sent as {@code AUTH} first, as a Redis
 * client does; without it the command goes out unauthenticated.
 */
public final class RedisCommand {

    private RedisCommand() {}

    /**
     * Sends {@code command} to the Redis of {@code url} ({@code redis://[user:password@]host:port}) and returns the
     * first line of its reply as Redis sent it ({@code +OK}, {@code -NOAUTH ...}, {@code :1}, {@code $5} ...).
     *
     * @throws IOException when Redis cannot be reached, closes the connection first, or refuses the AUTH
     */
    public static String firstReplyLine(String url, Duration timeout, String... command) throws IOException {
        return send(url, timeout, false, command);
    }

    /**
     * Like {@link #firstReplyLine}, but a bulk string reply ({@code CLIENT LIST}, {@code GET}) is returned as its
     * content; any other reply as its line.
     */
    public static String reply(String url, Duration timeout, String... command) throws IOException {
        return send(url, timeout, true, command);
    }

    private static String send(String url, Duration timeout, boolean bulkContent, String... command)
            throws IOException {
        URI uri = URI.create(url);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            List<String> auth = authCommand(uri);
            if (!auth.isEmpty()) {
                out.write(encode(auth));
                out.flush();
                String reply = readLine(in);
                if (!reply.equals("+OK")) {
                    // Redis's error text names no secret (WRONGPASS invalid username-password pair ...).
                    throw new IOException("Redis refused the AUTH: " + reply);
                }
            }
            out.write(encode(List.of(command)));
            out.flush();
            String line = readLine(in);
            if (!bulkContent || !line.startsWith("$") || line.equals("$-1")) {
                return line;
            }
            byte[] content = in.readNBytes(Integer.parseInt(line.substring(1)) + 2);
            return new String(content, 0, Math.max(0, content.length - 2), StandardCharsets.UTF_8);
        }
    }

    /** {@code AUTH password} or {@code AUTH user password} from the URL's user information; none without it. */
    private static List<String> authCommand(URI uri) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null || userInfo.isEmpty()) {
            return List.of();
        }
        int colon = userInfo.indexOf(':');
        List<String> auth = new ArrayList<>(List.of("AUTH"));
        if (colon < 0) {
            auth.add(decode(userInfo));
        } else {
            String user = decode(userInfo.substring(0, colon));
            if (!user.isEmpty()) {
                auth.add(user);
            }
            auth.add(decode(userInfo.substring(colon + 1)));
        }
        return auth;
    }

    private static String decode(String value) {
        return java.net.URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static byte[] encode(List<String> parts) {
        StringBuilder resp = new StringBuilder("*").append(parts.size()).append("\r\n");
        for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            resp.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
        }
        return resp.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("Redis closed the connection before it answered");
            }
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
    }
}
