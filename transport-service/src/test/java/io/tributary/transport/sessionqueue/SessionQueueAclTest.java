package io.tributary.transport.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.sessionqueue.EntryHeaders;
import io.tributary.sessionqueue.QueueReader;
import io.tributary.sessionqueue.SessionQueueKeys;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.connection.SubscriptionOptions;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metrics.TransportMetrics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * A resumed persistent session's queue is handed out only as far as the connection's ACL lets it read now (issue 34):
 * entries queued for topics it may no longer subscribe to are dropped, counted and removed from the queue, even when
 * the connection still holds a subscription matching them (a session-service that did not prune it, or a stale one).
 */
class SessionQueueAclTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(registry);
    private final FakeQueue queue = new FakeQueue();
    private final FakeDelivery delivery = new FakeDelivery();
    private final LocalSubscriptions subscriptions = new LocalSubscriptions();
    private final SessionQueueReader reader =
            new SessionQueueReader(queue, subscriptions, delivery, metrics, new ConnectionRegistry(), HopTracing.OFF);

    private ClientConnection resumed(EmbeddedChannel channel, TenantNamespace namespace, List<String> subscribeAcl) {
        ClientConnection connection = new ClientConnection(
                channel, "meter-7", 3, MqttVersion.MQTT_5, false, 30, 3600, ClientCapabilities.DEFAULTS, 0, null, true);
        connection.namespace(namespace);
        connection.permissions(TopicPermissions.of(new ConnectApi.Acl(List.of(), subscribeAcl)));
        return connection;
    }

    @Test
    void queued_messages_the_acl_no_longer_allows_are_dropped_counted_and_removed_the_others_delivered() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection connection = resumed(channel, TenantNamespace.GLOBAL, List.of("meters/meter-7/#"));
        // Held from before the ACL change: it matches both topics.
        subscriptions.add(connection, "meters/#", new SubscriptionOptions(1, false, false));
        queue.add(1, "meters/meter-7/cmd");
        queue.add(2, "meters/meter-8/cmd");
        queue.add(3, "meters/meter-7/cfg");

        reader.start(connection);
        channel.runPendingTasks();

        assertThat(delivery.sent)
                .extracting(OutboundMessage::topic)
                .containsExactly("meters/meter-7/cmd", "meters/meter-7/cfg");
        assertThat(queue.removed).containsExactly(2L);
        assertThat(dropped()).isEqualTo(1.0);
    }

    @Test
    void a_tenants_queue_gives_out_only_its_own_namespace_under_the_acl() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection connection = resumed(channel, TenantNamespace.of("acme"), List.of("a/#"));
        // Stale ones matching every entry; the connection's own would be under $tenant/acme/ only.
        for (String filter : List.of("$tenant/acme/#", "$tenant/other/#", "a/#")) {
            subscriptions.add(connection, filter, new SubscriptionOptions(2, false, false));
        }
        queue.add(1, "$tenant/acme/a/1");
        queue.add(2, "$tenant/acme/b/1");
        queue.add(3, "$tenant/other/a/1");
        queue.add(4, "a/1");

        reader.start(connection);
        channel.runPendingTasks();

        assertThat(delivery.sent).extracting(OutboundMessage::topic).containsExactly("$tenant/acme/a/1");
        assertThat(queue.removed).containsExactly(2L, 3L, 4L);
        assertThat(dropped()).isEqualTo(3.0);
    }

    private double dropped() {
        var counter = registry.find("tributary.deliveries.dropped")
                .tag("reason", "queue_not_authorized")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** A session queue in memory: every entry QoS 1. */
    private static final class FakeQueue implements QueueReader {
        final TreeMap<Long, Entry> entries = new TreeMap<>();
        final List<Long> removed = new ArrayList<>();

        void add(long seq, String topic) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(io.tributary.common.kafka.RecordHeaders.QOS, new byte[] {1});
            entries.put(
                    seq,
                    new Entry(
                            seq,
                            Map.of(
                                    SessionQueueKeys.FIELD_TOPIC, topic.getBytes(StandardCharsets.UTF_8),
                                    SessionQueueKeys.FIELD_PAYLOAD, "x".getBytes(StandardCharsets.UTF_8),
                                    SessionQueueKeys.FIELD_HEADERS, EntryHeaders.encode(headers))));
        }

        @Override
        public CompletableFuture<Fetched> fetch(String clientId, long fromSeq, int count) {
            return CompletableFuture.completedFuture(new Fetched(
                    0, entries.tailMap(fromSeq).values().stream().limit(count).toList()));
        }

        @Override
        public CompletableFuture<Long> remove(String clientId, long seq) {
            removed.add(seq);
            entries.remove(seq);
            return CompletableFuture.completedFuture(1L);
        }

        @Override
        public CompletableFuture<Long> removeAll(String clientId, List<Long> seqs) {
            seqs.forEach(s -> remove(clientId, s));
            return CompletableFuture.completedFuture((long) seqs.size());
        }

        @Override
        public CompletableFuture<Object> released(String clientId, long seq, int packetId) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Long> completed(String clientId, int packetId) {
            return CompletableFuture.completedFuture(0L);
        }

        @Override
        public CompletableFuture<List<Integer>> releasedPacketIds(String clientId) {
            return CompletableFuture.completedFuture(List.of());
        }

        @Override
        public void onReconnected(Runnable listener) {}
    }

    private static final class FakeDelivery implements QueueDelivery {
        final List<OutboundMessage> sent = new ArrayList<>();

        @Override
        public void onSlotFreed(Consumer<ClientConnection> listener) {}

        @Override
        public int freeSlots(ClientConnection connection) {
            return 10 - sent.size();
        }

        @Override
        public void sendQueued(ClientConnection connection, OutboundMessage message, int packetId) {
            sent.add(message);
        }

        @Override
        public void resendRelease(ClientConnection connection, int packetId) {}

        @Override
        public void deliver(ClientConnection connection, OutboundMessage message) {
            sent.add(message);
        }
    }
}
