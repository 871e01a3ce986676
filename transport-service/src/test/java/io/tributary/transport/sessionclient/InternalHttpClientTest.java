package io.tributary.transport.sessionclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The internal API's HTTP/1.1 client against a socket server written here, so that the server can do what Tomcat
 * does only now and then: close a kept-alive connection, answer {@code Connection: close}, never answer.
 */
class InternalHttpClientTest {

    private final InternalHttpClient client = new InternalHttpClient(Duration.ofSeconds(2));
    private TestServer server;

    @AfterEach
    void close() throws IOException {
        client.close();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void a_post_gets_status_and_body_and_the_server_sees_method_target_headers_and_body() throws Exception {
        server = new TestServer(Behaviour.ECHO);
        InternalHttpClient.Response response =
                post("/internal/v1/x?a=b", "{\"k\":1}").get(5, TimeUnit.SECONDS);

        assertThat(response.status()).isEqualTo(200);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("POST /internal/v1/x?a=b {\"k\":1}");
        String head = server.heads.get(0).toLowerCase(Locale.ROOT);
        assertThat(head).contains("host: 127.0.0.1:" + server.port()).contains("x-token: secret");
        assertThat(head).contains("content-length: 7");
    }

    @Test
    void sequential_calls_reuse_one_connection() throws Exception {
        server = new TestServer(Behaviour.ECHO);
        for (int i = 0; i < 5; i++) {
            assertThat(post("/n", "b" + i).get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(server.connections.get()).isEqualTo(1);
    }

    @Test
    void concurrent_calls_each_get_their_own_answer() throws Exception {
        server = new TestServer(Behaviour.SLOW_ECHO);
        List<CompletableFuture<InternalHttpClient.Response>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(post("/c", "body-" + i));
        }
        for (int i = 0; i < 8; i++) {
            assertThat(new String(calls.get(i).get(5, TimeUnit.SECONDS).body(), StandardCharsets.UTF_8))
                    .isEqualTo("POST /c body-" + i);
        }
        // HTTP/1.1 without pipelining: one exchange per connection at a time.
        assertThat(server.connections.get()).isEqualTo(8);
    }

    @Test
    void a_kept_alive_connection_the_server_closes_as_the_next_request_arrives_is_not_a_failed_call() throws Exception {
        server = new TestServer(Behaviour.CLOSE_ON_SECOND_REQUEST);
        assertThat(post("/1", "a").get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
        // The server closes the kept-alive connection as the second request comes in, unanswered (its keep-alive
        // timeout crossing the request): the call goes again on a new connection and is answered.
        InternalHttpClient.Response second = post("/2", "b").get(5, TimeUnit.SECONDS);
        assertThat(new String(second.body(), StandardCharsets.UTF_8)).isEqualTo("POST /2 b");
        assertThat(server.connections.get()).isEqualTo(2);
    }

    @Test
    void connection_close_in_an_answer_is_honoured() throws Exception {
        server = new TestServer(Behaviour.ECHO_WITH_CONNECTION_CLOSE);
        for (int i = 0; i < 3; i++) {
            assertThat(post("/c", "x").get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(server.connections.get()).isEqualTo(3);
    }

    @Test
    void a_call_without_an_answer_fails_after_its_timeout_and_its_connection_is_not_reused() throws Exception {
        server = new TestServer(Behaviour.NEVER_ANSWER_FIRST);
        long started = System.nanoTime();
        assertThatThrownBy(() -> client.send(
                                base(), HttpMethod.GET, "/slow", null, new DefaultHttpHeaders(), Duration.ofMillis(300))
                        .get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(HttpTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
        assertThat(post("/next", "y").get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(server.connections.get()).isEqualTo(2);
    }

    @Test
    void an_instance_that_cannot_be_reached_fails_the_call() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        assertThatThrownBy(() -> client.send(
                                URI.create("http://127.0.0.1:" + closedPort),
                                HttpMethod.GET,
                                "/x",
                                null,
                                new DefaultHttpHeaders(),
                                Duration.ofSeconds(2))
                        .get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IOException.class);
    }

    private CompletableFuture<InternalHttpClient.Response> post(String target, String body) {
        return client.send(
                base(),
                HttpMethod.POST,
                target,
                body.getBytes(StandardCharsets.UTF_8),
                new DefaultHttpHeaders().set("X-Token", "secret"),
                Duration.ofSeconds(3));
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    private enum Behaviour {
        ECHO,
        SLOW_ECHO,
        CLOSE_ON_SECOND_REQUEST,
        ECHO_WITH_CONNECTION_CLOSE,
        NEVER_ANSWER_FIRST
    }

    /** Thread per connection; answers each request with "METHOD target body". */
    private static final class TestServer implements AutoCloseable {

        final AtomicInteger connections = new AtomicInteger();
        final List<String> heads = new CopyOnWriteArrayList<>();
        private final ServerSocket socket;
        private final Behaviour behaviour;
        private final List<Socket> accepted = new CopyOnWriteArrayList<>();

        TestServer(Behaviour behaviour) throws IOException {
            this.behaviour = behaviour;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::accept, "test-http-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    accepted.add(s);
                    int n = connections.incrementAndGet();
                    Thread t = new Thread(() -> serve(s, n), "test-http-" + n);
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s, int connection) {
            try (s) {
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                for (int exchange = 0; ; exchange++) {
                    String head = readHead(in);
                    if (head == null) {
                        return;
                    }
                    heads.add(head);
                    String[] requestLine = head.split("\r\n")[0].split(" ");
                    int length = contentLength(head);
                    byte[] body = in.readNBytes(length);
                    if (behaviour == Behaviour.CLOSE_ON_SECOND_REQUEST && connection == 1 && exchange == 1) {
                        return;
                    }
                    if (behaviour == Behaviour.NEVER_ANSWER_FIRST && connection == 1) {
                        Thread.sleep(10_000);
                        return;
                    }
                    if (behaviour == Behaviour.SLOW_ECHO) {
                        Thread.sleep(200);
                    }
                    byte[] answer = (requestLine[0] + " " + requestLine[1] + " "
                                    + new String(body, StandardCharsets.UTF_8))
                            .getBytes(StandardCharsets.UTF_8);
                    String close = behaviour == Behaviour.ECHO_WITH_CONNECTION_CLOSE ? "Connection: close\r\n" : "";
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + close + "Content-Length: "
                                    + answer.length + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(answer);
                    out.flush();
                    if (behaviour == Behaviour.ECHO_WITH_CONNECTION_CLOSE) {
                        return;
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            int b;
            while ((b = in.read()) != -1) {
                head.write(b);
                matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                        ? matched + 1
                        : 0;
                if (matched == 4) {
                    return head.toString(StandardCharsets.US_ASCII);
                }
            }
            return null;
        }

        private static int contentLength(String head) {
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    return Integer.parseInt(
                            line.substring("content-length:".length()).trim());
                }
            }
            return 0;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
