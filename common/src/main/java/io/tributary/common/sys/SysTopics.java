package io.tributary.common.sys;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The {@code $SYS} topics the broker publishes its statistics on, like other brokers (Mosquitto's
 * {@code $SYS/broker/...} names): retained QoS 0 messages with a plain-text payload, produced as ordinary records
 * on {@code tributary.publish}, so every node, the retained store and any Kafka consumer see them.
 *
 * <ul>
 *   <li>Each transport node publishes what only it knows — its connections, the PUBLISH packets it received and
 *       sent, its uptime, the latency of the hops it measures ({@link DataPathHop}) — under
 *       {@code $SYS/broker/nodes/<nodeId>/...}.</li>
 *   <li>Each router publishes the latency of the hops it measures under {@code $SYS/broker/routers/<routerId>/...}.
 *       </li>
 *   <li>Session-service publishes the cluster-wide figures under {@code $SYS/broker/...}: sessions (connected,
 *       disconnected, total), subscriptions, retained messages and live transport nodes from PostgreSQL, and the
 *       message counters summed over the live nodes' latest published figures.</li>
 * </ul>
 * Clients cannot publish to {@code $SYS} (MQTT 5 section 4.7.2: the server should prevent clients from using
 * {@code $} topics to exchange messages).
 */
public final class SysTopics {

    public static final String ROOT = "$SYS";
    public static final String BROKER = "$SYS/broker/";
    public static final String NODES = BROKER + "nodes/";
    public static final String ROUTERS = BROKER + "routers/";

    public static final String CLIENTS_CONNECTED = "clients/connected";
    public static final String CLIENTS_DISCONNECTED = "clients/disconnected";
    public static final String CLIENTS_TOTAL = "clients/total";
    public static final String MESSAGES_RECEIVED = "messages/received";
    public static final String MESSAGES_SENT = "messages/sent";
    public static final String SUBSCRIPTIONS_COUNT = "subscriptions/count";
    public static final String RETAINED_COUNT = "retained messages/count";
    public static final String NODES_COUNT = "nodes/count";
    public static final String UPTIME = "uptime";
    public static final String VERSION = "version";

    /** Publisher of the records: no MQTT client sent them. */
    public static final String CLIENT_ID = "";

    private static final String VERSION_TEXT = "tributary " + readVersion();

    private SysTopics() {}

    /** Cluster-wide statistic, e.g. {@code $SYS/broker/clients/connected}. */
    public static String broker(String statistic) {
        return BROKER + statistic;
    }

    /** Statistic of one transport node, e.g. {@code $SYS/broker/nodes/transport-1/clients/connected}. */
    public static String node(String nodeId, String statistic) {
        return NODES + nodeId + "/" + statistic;
    }

    /** Statistic of one router, e.g. {@code $SYS/broker/routers/router-a/latency/route/p99}. */
    public static String router(String routerId, String statistic) {
        return ROUTERS + routerId + "/" + statistic;
    }

    /** True for {@code $SYS} and every topic below it: clients may read them, never write them. */
    public static boolean isSys(String topic) {
        return topic.equals(ROOT) || topic.startsWith(ROOT + "/");
    }

    /** {@code $SYS/broker/version}'s payload: "tributary" and the build's version. */
    public static String version() {
        return VERSION_TEXT;
    }

    /** Mosquitto's format for uptimes. */
    public static String uptime(long seconds) {
        return seconds + " seconds";
    }

    private static String readVersion() {
        try (InputStream in = SysTopics.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
