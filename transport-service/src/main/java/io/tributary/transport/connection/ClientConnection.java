package io.tributary.transport.connection;

import io.netty.channel.Channel;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.netty.util.AttributeKey;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.transport.alias.InboundTopicAliases;
import io.tributary.transport.alias.OutboundTopicAliases;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.metering.TenantMeter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One accepted MQTT connection: its identity (client id, epoch, version, clean start, keep alive), the capabilities
 * the client announced, its permissions, will and session expiry, and the two halves of its QoS flow, each an object
 * of its own: {@link InboundFlow} (what we owe the client for its publishes) and {@link OutboundFlow} (what the
 * client owes us for ours). The filters it holds live with the node's index ({@code index.LocalSubscriptions}).
 *
 * <p>Event-loop confined: everything mutable here and in the flow objects is touched only on the channel's event loop
 * (single writer, no locks); other threads read the immutable identity fields and hand work to the loop. The
 * exceptions say so: {@link #bytesRead} (volatile) and {@link #uplinkAccount} (atomic).
 */
public final class ClientConnection {

    public static final AttributeKey<ClientConnection> KEY = AttributeKey.valueOf("tributary.connection");

    /** The chain of session-service calls starts here; shared, it is never completed again. */
    private static final CompletableFuture<Object> NO_CALLS = CompletableFuture.completedFuture(null);

    private final Channel channel;
    private final String clientId;
    private final long epoch;
    private final MqttVersion version;
    private final boolean cleanStart;
    private final int keepAliveSeconds;
    private final ClientCapabilities capabilities;

    // --- event-loop-only state ---
    /** What this connection may publish and subscribe to; set once at CONNECT, before any other packet is read. */
    private TopicPermissions permissions = TopicPermissions.UNRESTRICTED;
    /**
     * The topic namespace the client's names are mapped into (its tenant's, or the global one); set once at
     * CONNECT, before the connection is registered and any other packet is read.
     */
    private TenantNamespace namespace = TenantNamespace.GLOBAL;
    /** Counts the tenant's usage on this node (metering); {@link TenantMeter#NONE} without a tenant. */
    private volatile TenantMeter meter = TenantMeter.NONE;
    /** The first ACL denial of a connection is logged; later ones are only counted, so a client cannot flood logs. */
    private boolean aclDenialLogged;

    private long sessionExpirySeconds;
    /** Session-service gave the session less expiry than the CONNECT asked for: an MQTT 5 CONNACK says how much. */
    private boolean sessionExpiryLowered;

    private WillMessage will;
    private boolean normalDisconnect;
    private boolean takenOver;
    private boolean fenced;
    /** Replays of this connection still joining live traffic (see replay/ReplaySeam); null until the first. */
    private List<LiveSeam> replays;
    /** The session outlives the connection: its QoS 1/2 messages come from its session queue. */
    private final boolean queueBacked;
    /** The client's publishes: acknowledgements in order, QoS 2 ids awaiting PUBREL, Receive Maximum, aliases. */
    private final InboundFlow inbound;
    /** Our publishes to the client: in-flight window, waiting queue, bytes held, packet ids, aliases. */
    private final OutboundFlow outbound;
    /** Bytes of this client's publishes waiting for Kafka; also touched by the producer thread (atomic). */
    private final UplinkBudget.Account uplinkAccount = new UplinkBudget.Account();
    /** Session-service calls of this connection run one after another, in packet order. */
    private CompletableFuture<?> sessionCalls = NO_CALLS;
    /** When bytes of this client last arrived ({@link System#nanoTime}); read by {@link KeepAliveWatch}. */
    private volatile long lastReadNanos = System.nanoTime();

    /**
     * @param serverTopicAliasMaximum the Topic Alias Maximum we announced; it also caps how many aliases we assign
     *                                to this client, which bounds the memory one connection can make us hold
     */
    public ClientConnection(
            Channel channel,
            String clientId,
            long epoch,
            MqttVersion version,
            boolean cleanStart,
            int keepAliveSeconds,
            long sessionExpirySeconds,
            ClientCapabilities capabilities,
            int serverTopicAliasMaximum,
            WillMessage will) {
        this(
                channel,
                clientId,
                epoch,
                version,
                cleanStart,
                keepAliveSeconds,
                sessionExpirySeconds,
                capabilities,
                serverTopicAliasMaximum,
                will,
                sessionExpirySeconds > 0);
    }

    /**
     * @param queueBacked whether the session is served from its session queue: decided with
     *                    {@link io.tributary.sessionqueue.SessionQueueing#queueBacked}, as session-service does
     */
    public ClientConnection(
            Channel channel,
            String clientId,
            long epoch,
            MqttVersion version,
            boolean cleanStart,
            int keepAliveSeconds,
            long sessionExpirySeconds,
            ClientCapabilities capabilities,
            int serverTopicAliasMaximum,
            WillMessage will,
            boolean queueBacked) {
        this.channel = channel;
        this.clientId = clientId;
        this.epoch = epoch;
        this.version = version;
        this.cleanStart = cleanStart;
        this.keepAliveSeconds = keepAliveSeconds;
        this.sessionExpirySeconds = sessionExpirySeconds;
        this.capabilities = capabilities;
        this.will = will;
        this.queueBacked = queueBacked;
        boolean v5 = version == MqttVersion.MQTT_5;
        this.inbound = new InboundFlow(channel, v5, v5 ? new InboundTopicAliases(serverTopicAliasMaximum) : null);
        int outboundAliases = Math.min(capabilities.topicAliasMaximum(), serverTopicAliasMaximum);
        this.outbound = new OutboundFlow(
                capabilities.receiveMaximum(),
                v5 && outboundAliases > 0 ? new OutboundTopicAliases(outboundAliases) : null);
    }

    public TopicPermissions permissions() {
        return permissions;
    }

    public void permissions(TopicPermissions permissions) {
        this.permissions = permissions;
    }

    public TenantNamespace namespace() {
        return namespace;
    }

    /** The tenant's namespace from session-service's answer to CONNECT; the will moves into it too. */
    public void namespace(TenantNamespace namespace) {
        this.namespace = namespace;
        if (will != null) {
            will = will.inNamespace(namespace);
        }
    }

    /** The tenant's meter, read on the event loop and on the Kafka producer's thread. */
    public TenantMeter meter() {
        return meter;
    }

    /** Set once the connection is accepted (and counted as connected). */
    public void meter(TenantMeter meter) {
        this.meter = meter;
    }

    /** True the first time it is called for this connection: whether to log an ACL denial. */
    public boolean firstAclDenial() {
        boolean first = !aclDenialLogged;
        aclDenialLogged = true;
        return first;
    }

    public static ClientConnection of(Channel channel) {
        return channel.attr(KEY).get();
    }

    public Channel channel() {
        return channel;
    }

    /**
     * The verified client certificate (CN, subject alternative names) when the client connected over mutual TLS,
     * else null. Read once from the TLS session at CONNECT and kept on the channel.
     */
    public ClientCertificate clientCertificate() {
        return channel.hasAttr(ClientCertificate.KEY)
                ? channel.attr(ClientCertificate.KEY).get()
                : null;
    }

    public String clientId() {
        return clientId;
    }

    public long epoch() {
        return epoch;
    }

    public MqttVersion version() {
        return version;
    }

    public boolean isMqtt5() {
        return version == MqttVersion.MQTT_5;
    }

    public boolean cleanStart() {
        return cleanStart;
    }

    /** Bytes of this client arrived (any thread may read the time; the event loop writes it). */
    public void bytesRead(long nanoTime) {
        lastReadNanos = nanoTime;
    }

    /**
     * MQTT 3.1.1 section 3.1.2.10, 5.0 section 3.1.2.10: whether nothing arrived for one and a half keep-alive periods.
     * Never true with keep alive 0.
     */
    public boolean keepAliveExpired(long nanoTime) {
        return keepAliveSeconds > 0 && nanoTime - lastReadNanos > keepAliveSeconds * 1_500_000_000L;
    }

    public int keepAliveSeconds() {
        return keepAliveSeconds;
    }

    public long clientMaximumPacketSize() {
        return capabilities.maximumPacketSize();
    }

    /** False when an MQTT 5 client asked for no reason strings / user properties on acknowledgements. */
    public boolean wantsProblemInformation() {
        return capabilities.requestProblemInformation();
    }

    /** The client's publishes and what we owe for them. Event loop only. */
    public InboundFlow inbound() {
        return inbound;
    }

    /** Our publishes to the client and what it owes for them. Event loop only. */
    public OutboundFlow outbound() {
        return outbound;
    }

    public long sessionExpirySeconds() {
        return sessionExpirySeconds;
    }

    public void sessionExpirySeconds(long seconds) {
        this.sessionExpirySeconds = seconds;
    }

    public boolean sessionExpiryLowered() {
        return sessionExpiryLowered;
    }

    public void sessionExpiryLowered(boolean lowered) {
        this.sessionExpiryLowered = lowered;
    }

    public WillMessage will() {
        return will;
    }

    public void clearWill() {
        this.will = null;
    }

    public boolean normalDisconnect() {
        return normalDisconnect;
    }

    public void markNormalDisconnect() {
        this.normalDisconnect = true;
    }

    public boolean takenOver() {
        return takenOver;
    }

    public void markTakenOver() {
        this.takenOver = true;
    }

    /**
     * Session-service declared this node's incarnation dead and already ended the session and took care of the will:
     * closing the connection must neither publish the will nor report a disconnect.
     */
    public boolean fenced() {
        return fenced;
    }

    public void markFenced() {
        this.fenced = true;
    }

    /**
     * The replays of this connection whose seam with live traffic still applies, or null when it never asked for
     * one: a null test is all a live delivery costs a connection that does not replay. Event loop only.
     */
    public List<LiveSeam> replays() {
        return replays;
    }

    /** The replays list, created on first use. Event loop only. */
    public List<LiveSeam> replaysCreated() {
        if (replays == null) {
            replays = new ArrayList<>(1);
        }
        return replays;
    }

    /** Event loop only. */
    public void clearReplays() {
        replays = null;
    }

    /**
     * True for a queue-backed session (expiry above 0 at CONNECT, or a resumed session): its QoS 1/2 messages come
     * from its queue (read through sessionqueue/QueueCursor).
     */
    public boolean queueBacked() {
        return queueBacked;
    }

    public UplinkBudget.Account uplinkAccount() {
        return uplinkAccount;
    }

    /** Runs {@code call} after every earlier session-service call of this connection has finished. */
    public <T> CompletableFuture<T> serialSessionCall(Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> next = sessionCalls.handle((r, e) -> null).thenCompose(ignored -> call.get());
        sessionCalls = next;
        return next;
    }

    @Override
    public String toString() {
        return "client '" + clientId + "' (" + ClientAddress.of(channel) + ")";
    }
}
