package io.tributary.transport.sessionclient;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * HTTP/1.1 for the internal API on one Netty event loop: keep-alive connections per session-service instance, one
 * exchange at a time on each, idle ones reused most recent first, new ones opened when all are busy.
 *
 * <p>Why not the JDK's {@code HttpClient}: each call crossed four or more threads (the caller, the client's executor,
 * its selector thread for the timer and the read, the executor again), and on an idle two-core machine every crossing
 * is a wake-up. Calling the quick start's internal API once every 0.7 s, the JDK client's p50 was 10.3–11.5 ms
 * against session-service's own 4–6 ms, this client's 6.3–7.5 ms against 3–3.4 ms (docs/benchmarks-history.md, ninth
 * round);
 * the storm profile had the JDK client at 34 % of the transport's samples.
 *
 * <p>Futures complete on the event loop: callers move off it before doing any work ({@link SessionServiceHttp}).
 */
final class InternalHttpClient implements AutoCloseable {

    /** A whole answer: its status and body (empty when it had none). */
    record Response(int status, byte[] body) {}

    /** The connection closed before the answer came; a request on a reused connection is sent once more. */
    static final class ConnectionClosedException extends IOException {
        ConnectionClosedException(String message) {
            super(message);
        }
    }

    /** A connection idle this long is not reused (the server keeps them 30 min; a stale one costs a retry). */
    private static final long MAX_IDLE_NANOS = TimeUnit.MINUTES.toNanos(5);

    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Map<String, Deque<Pooled>> idle = new ConcurrentHashMap<>();
    private volatile SslContext ssl;

    /** An idle connection and when it was last answered. */
    private record Pooled(Channel channel, long idleSince) {}

    InternalHttpClient(Duration connectTimeout) {
        boolean epoll = Epoll.isAvailable();
        this.group = new MultiThreadIoEventLoopGroup(
                1,
                new DefaultThreadFactory("session-http", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
    }

    /**
     * Sends one request to {@code base} (scheme, host and port; its path is ignored, as {@link URI#resolve} with an
     * absolute path does).
     *
     * @param target  the request target: an absolute path with its query, already encoded
     * @param body    null for none
     * @param headers added to Host (and Content-Length with a body)
     * @return fails with {@link HttpTimeoutException} after {@code timeout}, with an {@link IOException} when the
     *         instance cannot be reached or the connection broke
     */
    CompletableFuture<Response> send(
            URI base, HttpMethod method, String target, byte[] body, HttpHeaders headers, Duration timeout) {
        CompletableFuture<Response> answer = new CompletableFuture<>();
        send(base, method, target, body, headers, timeout, answer, true);
        return answer;
    }

    private void send(
            URI base,
            HttpMethod method,
            String target,
            byte[] body,
            HttpHeaders headers,
            Duration timeout,
            CompletableFuture<Response> answer,
            boolean mayReuse) {
        String key = key(base);
        Pooled pooled = mayReuse ? takeIdle(key) : null;
        if (pooled != null) {
            exchange(pooled.channel(), true, base, method, target, body, headers, timeout, answer);
            return;
        }
        bootstrap
                .clone()
                .handler(initializer(base))
                .connect(base.getHost(), port(base))
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        answer.completeExceptionally(f.cause());
                        return;
                    }
                    exchange(
                            ((io.netty.channel.ChannelFuture) f).channel(),
                            false,
                            base,
                            method,
                            target,
                            body,
                            headers,
                            timeout,
                            answer);
                });
    }

    private void exchange(
            Channel channel,
            boolean reused,
            URI base,
            HttpMethod method,
            String target,
            byte[] body,
            HttpHeaders headers,
            Duration timeout,
            CompletableFuture<Response> answer) {
        CompletableFuture<Response> attempt = new CompletableFuture<>();
        attempt.whenComplete((response, failure) -> {
            if (failure instanceof ConnectionClosedException && reused) {
                // The instance closed an idle connection as the request went out: every internal call may be
                // repeated (SessionServiceHttp), so it goes again on a new connection.
                send(base, method, target, body, headers, timeout, answer, false);
            } else if (failure != null) {
                answer.completeExceptionally(failure);
            } else {
                answer.complete(response);
            }
        });
        FullHttpRequest request = new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1,
                method,
                target,
                body == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        request.headers().set(HttpHeaderNames.HOST, base.getHost() + ":" + port(base));
        request.headers().add(headers);
        if (body != null) {
            HttpUtil.setContentLength(request, body.length);
        }
        channel.eventLoop().execute(() -> {
            Exchanges exchanges = channel.pipeline().get(Exchanges.class);
            if (exchanges == null || !channel.isActive()) {
                request.release();
                attempt.completeExceptionally(new ConnectionClosedException("connection to " + key(base) + " closed"));
                return;
            }
            exchanges.begin(attempt, timeout);
            channel.writeAndFlush(request).addListener(w -> {
                if (!w.isSuccess()) {
                    exchanges.fail(
                            new ConnectionClosedException("request to " + key(base) + " not sent: " + w.cause()));
                    channel.close();
                }
            });
        });
    }

    private Pooled takeIdle(String key) {
        Deque<Pooled> connections = idle.get(key);
        if (connections == null) {
            return null;
        }
        long now = System.nanoTime();
        Pooled pooled;
        while ((pooled = connections.pollFirst()) != null) {
            if (pooled.channel().isActive() && now - pooled.idleSince() < MAX_IDLE_NANOS) {
                return pooled;
            }
            pooled.channel().close();
        }
        return null;
    }

    private void release(String key, Channel channel) {
        idle.computeIfAbsent(key, k -> new ConcurrentLinkedDeque<>())
                .offerFirst(new Pooled(channel, System.nanoTime()));
    }

    private ChannelInitializer<Channel> initializer(URI base) {
        String key = key(base);
        boolean tls = "https".equalsIgnoreCase(base.getScheme());
        SslContext context = tls ? ssl() : null;
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel channel) {
                if (context != null) {
                    SSLEngine engine = context.newEngine(channel.alloc(), base.getHost(), port(base));
                    SSLParameters parameters = engine.getSSLParameters();
                    // The certificate must name the host the URL names.
                    parameters.setEndpointIdentificationAlgorithm("HTTPS");
                    engine.setSSLParameters(parameters);
                    channel.pipeline().addLast(new io.netty.handler.ssl.SslHandler(engine));
                }
                channel.pipeline()
                        .addLast(new HttpClientCodec())
                        // No limit of its own: an answer is as large as the batch's retained messages make it.
                        .addLast(new HttpObjectAggregator(Integer.MAX_VALUE))
                        .addLast(new Exchanges(key));
            }
        };
    }

    private SslContext ssl() {
        SslContext context = ssl;
        if (context == null) {
            try {
                // The JDK's trust store, as the JDK client used.
                context = SslContextBuilder.forClient().build();
            } catch (SSLException e) {
                throw new IllegalStateException("cannot set up TLS for the internal API: " + e.getMessage(), e);
            }
            ssl = context;
        }
        return context;
    }

    private static String key(URI base) {
        return base.getScheme() + "://" + base.getHost() + ":" + port(base);
    }

    private static int port(URI base) {
        if (base.getPort() != -1) {
            return base.getPort();
        }
        return "https".equalsIgnoreCase(base.getScheme()) ? 443 : 80;
    }

    @Override
    public void close() {
        idle.values()
                .forEach(connections -> connections.forEach(p -> p.channel().close()));
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The exchange under way on one connection; only its event loop touches it. */
    private final class Exchanges extends SimpleChannelInboundHandler<FullHttpResponse> {

        private final String key;
        private ChannelHandlerContext context;
        private CompletableFuture<Response> current;
        private ScheduledFuture<?> timer;

        Exchanges(String key) {
            this.key = key;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            context = ctx;
        }

        void begin(CompletableFuture<Response> answer, Duration timeout) {
            current = answer;
            ChannelHandlerContext ctx = context;
            timer = ctx.executor()
                    .schedule(
                            () -> {
                                if (current == answer) {
                                    fail(new HttpTimeoutException(
                                            "no answer from " + key + " within " + timeout.toMillis() + " ms"));
                                    ctx.close();
                                }
                            },
                            timeout.toNanos(),
                            TimeUnit.NANOSECONDS);
        }

        void fail(Throwable cause) {
            CompletableFuture<Response> answer = end();
            if (answer != null) {
                answer.completeExceptionally(cause);
            }
        }

        private CompletableFuture<Response> end() {
            CompletableFuture<Response> answer = current;
            current = null;
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
            return answer;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            CompletableFuture<Response> answer = end();
            if (answer == null) {
                // An answer nobody asked for: the connection is out of step.
                ctx.close();
                return;
            }
            Response whole = new Response(response.status().code(), ByteBufUtil.getBytes(response.content()));
            if (HttpUtil.isKeepAlive(response)) {
                release(key, ctx.channel());
            } else {
                ctx.close();
            }
            answer.complete(whole);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            fail(new ConnectionClosedException("connection to " + key + " closed before the answer"));
            Deque<Pooled> connections = idle.get(key);
            if (connections != null) {
                connections.removeIf(p -> p.channel() == ctx.channel());
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(
                    cause instanceof IOException
                            ? cause
                            : new IOException("internal API call to " + key + ": " + cause, cause));
            ctx.close();
        }
    }
}
