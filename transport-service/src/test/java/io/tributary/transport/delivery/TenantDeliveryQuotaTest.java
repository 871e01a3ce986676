package io.tributary.transport.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.netty.util.ReferenceCountUtil;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.limits.tenant.RedisQuotaCounters;
import io.tributary.transport.limits.tenant.TenantDeliveryQuotas;
import io.tributary.transport.metrics.TransportMetrics;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A tenant's delivery quota (payload bytes per second to all its clients) as delivery spends it, on a real Redis
 * counter and real event loops: subscribers are the server side of in-JVM channels, whose peers collect the PUBLISH
 * packets written. QoS 0 over the rate is dropped and counted; QoS 1 is held and released later, in order, none
 * lost; a tenant without the quota (and a client without a tenant) is delivered to as before.
 */
class TenantDeliveryQuotaTest {

    private static final int PAYLOAD = 100;
    private static final long QUOTA = 1000; // ten messages a second

    private static EmbeddedRedisServer server;
    private static ManagedRedisConnection<byte[], byte[]> redis;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);
    private final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
    private TenantDeliveryQuotas quotas;
    private OutboundDelivery delivery;
    private Channel acceptor;

    /** One subscriber: the node's side of the channel, and what its client received. */
    private record Subscriber(ClientConnection connection, List<MqttPublishMessage> received) {}

    @BeforeAll
    static void redis() throws Exception {
        server = EmbeddedRedisServer.start(Files.createTempDirectory("delivery-quota-redis"));
        redis = RedisClientFactory.open(
                RedisSettings.of(server.url(), Duration.ofSeconds(2), "delivery-quota-test"),
                ByteArrayCodec.INSTANCE,
                new SimpleMeterRegistry());
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
        server.close();
    }

    @BeforeEach
    void start() {
        quotas = new TenantDeliveryQuotas(new RedisQuotaCounters(redis), meters);
        // Each test its own tenant names: the counters in Redis live for their window.
        delivery = new OutboundDelivery(
                metrics,
                new Disconnector(metrics),
                new OutboundDelivery.Limits(100, 1000, 1 << 20, SlowConsumerPolicy.DROP));
        delivery.deliveryQuotas(quotas);
    }

    @AfterEach
    void stop() throws Exception {
        quotas.close();
        if (acceptor != null) {
            acceptor.close().sync();
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private Subscriber subscriber(String tenant) throws Exception {
        if (acceptor == null) {
            acceptor = new ServerBootstrap()
                    .group(loops)
                    .channel(LocalServerChannel.class)
                    .childHandler(new ChannelInitializer<LocalChannel>() {
                        @Override
                        protected void initChannel(LocalChannel ch) {}
                    })
                    .bind(new LocalAddress("delivery-quota-" + UUID.randomUUID()))
                    .sync()
                    .channel();
        }
        CompletableFuture<Channel> serverSide = new CompletableFuture<>();
        acceptor.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object child) {
                ctx.pipeline().remove(this);
                serverSide.complete((Channel) child);
                ctx.fireChannelRead(child);
            }
        });
        List<MqttPublishMessage> received = new CopyOnWriteArrayList<>();
        CompletableFuture<ClientConnection> node = new CompletableFuture<>();
        new Bootstrap()
                .group(loops)
                .channel(LocalChannel.class)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        MqttPublishMessage publish = (MqttPublishMessage) msg;
                        received.add(publish.copy());
                        ReferenceCountUtil.release(msg);
                        if (publish.fixedHeader().qosLevel().value() > 0) {
                            ClientConnection c = node.join();
                            int id = publish.variableHeader().packetId();
                            c.channel().eventLoop().execute(() -> delivery.onPubAck(c, id));
                        }
                    }
                })
                .connect(acceptor.localAddress())
                .sync();
        Channel channel = serverSide.get(5, TimeUnit.SECONDS);
        ClientConnection connection = new ClientConnection(
                channel,
                tenant + "-" + UUID.randomUUID(),
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(65535, 268_435_460L, 0, true),
                0,
                null);
        connection.namespace(TenantNamespace.of(tenant));
        channel.attr(ClientConnection.KEY).set(connection);
        node.complete(connection);
        return new Subscriber(connection, received);
    }

    private static OutboundMessage message(String tenant, int qos, int index) {
        byte[] payload = ByteBuffer.allocate(PAYLOAD).putInt(index).array();
        String topic = tenant == null ? "t" : "$tenant/" + tenant + "/t";
        return new OutboundMessage(topic, payload, qos, false, new MqttProperties());
    }

    private static <T> T onLoop(ClientConnection c, Callable<T> task) throws Exception {
        return c.channel().eventLoop().submit(task).get(5, TimeUnit.SECONDS);
    }

    private void deliver(Subscriber s, String tenant, int qos, int index) throws Exception {
        onLoop(s.connection(), () -> {
            delivery.deliver(s.connection(), message(tenant, qos, index));
            return null;
        });
    }

    private static void await(Callable<Boolean> condition, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            assertThat(System.nanoTime() - deadline).as("timed out").isNegative();
            Thread.sleep(20);
        }
    }

    private double counted(String name, String... tags) {
        var counter = meters.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    private void quota(String tenant) {
        quotas.update(List.of(new LimitsApi.TenantPublishQuota(tenant, null, null, false, null, QUOTA)));
    }

    @Test
    void qos0_over_the_rate_is_dropped_and_counted_while_other_clients_are_not_limited() throws Exception {
        String tenant = "drop-" + UUID.randomUUID().toString().substring(0, 8);
        quota(tenant);
        Subscriber limited = subscriber(tenant);
        Subscriber other = subscriber("unlimited-co");
        Subscriber untenanted = subscriber(null);

        int offered = 150;
        long started = System.nanoTime();
        for (int i = 0; i < offered; i++) {
            deliver(limited, tenant, 0, i);
            deliver(other, "unlimited-co", 0, i);
            deliver(untenanted, null, 0, i);
            Thread.sleep(10);
        }
        long windows = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 2;
        await(
                () -> other.received().size() == offered
                        && untenanted.received().size() == offered,
                Duration.ofSeconds(5));

        int delivered = limited.received().size();
        assertThat((long) delivered * PAYLOAD)
                .as("at most the quota for each window touched, plus one batch of credit")
                .isLessThanOrEqualTo(windows * (QUOTA + QUOTA / 10))
                .isPositive();
        assertThat(counted("tributary.deliveries.dropped", "reason", "tenant_quota"))
                .isEqualTo(offered - delivered);
        assertThat(counted("tributary.tenant.quota.refusals", "tenant", tenant, "quota", "delivery_bytes"))
                .isEqualTo(offered - delivered);
        assertThat(other.received()).as("another tenant, no quota").hasSize(offered);
        assertThat(untenanted.received()).as("no tenant").hasSize(offered);
        assertThat(counted("tributary.tenant.quota.refusals", "tenant", "unlimited-co", "quota", "delivery_bytes"))
                .isZero();
    }

    @Test
    void qos1_over_the_rate_waits_and_is_released_later_in_order_none_dropped() throws Exception {
        String tenant = "delay-" + UUID.randomUUID().toString().substring(0, 8);
        quota(tenant);
        Subscriber limited = subscriber(tenant);
        Subscriber other = subscriber("unlimited-co");

        int count = 40; // four seconds of the quota
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            deliver(limited, tenant, 1, i);
            deliver(other, "unlimited-co", 1, i);
        }
        await(() -> other.received().size() == count, Duration.ofSeconds(5));
        int early = limited.received().size();
        assertThat(early)
                .as("what a window (two, if one ended meanwhile) and a batch of credit allow")
                .isLessThanOrEqualTo(22);
        assertThat(onLoop(
                        limited.connection(),
                        () -> limited.connection().outbound().waitingCount()))
                .as("the rest held in the connection's outbound queue")
                .isPositive();
        await(
                () -> onLoop(limited.connection(), () -> delivery.freeSlots(limited.connection())) == 0,
                Duration.ofSeconds(3));

        await(() -> limited.received().size() == count, Duration.ofSeconds(10));
        long took = System.nanoTime() - started;
        assertThat(took).as("slower than unthrottled").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(1500));
        for (int i = 0; i < count; i++) {
            assertThat(limited.received().get(i).payload().getInt(0))
                    .as("in order")
                    .isEqualTo(i);
        }
        assertThat(counted("tributary.deliveries.dropped", "reason", "tenant_quota"))
                .isZero();
        assertThat(counted("tributary.tenant.quota.refusals", "tenant", tenant, "quota", "delivery_bytes"))
                .as("delays are not refusals")
                .isZero();
        assertThat(counted("tributary.tenant.delivery.delayed", "tenant", tenant))
                .as("each held message at most once")
                .isPositive()
                .isLessThanOrEqualTo(count - early);
        assertThat(onLoop(
                        limited.connection(),
                        () -> limited.connection().outbound().undelivered()))
                .isZero();
        assertThat(other.received()).hasSize(count);
    }
}
