package io.tributary.common.session;

/**
 * Where a transport node's warm-up clients live: client ids and topics under {@code $warmup/<node>/}, one level per
 * node. A topic beginning with {@code $} is never matched by a filter starting with a wildcard (MQTT 4.7.2), so no
 * subscriber's {@code #} or {@code +/...}, no ACL written with them and no MQTT-to-Kafka rule sees the warm-up's
 * traffic; its records do reach {@code tributary.publish} under these keys.
 */
public final class WarmUpNamespace {

    public static final String ROOT = "$warmup";

    private WarmUpNamespace() {}

    /** The topic level of a node: its id with the characters that would make it a filter or split it replaced. */
    public static String nodeLevel(String nodeId) {
        return nodeId.replace('/', '_').replace('+', '_').replace('#', '_');
    }

    /** The client id of a node's {@code n}-th warm-up client. */
    public static String clientId(String nodeId, int n) {
        return ROOT + "/" + nodeLevel(nodeId) + "/" + n;
    }

    /** The topic a node's {@code n}-th warm-up client subscribes to and publishes on. */
    public static String topic(String nodeId, int n) {
        return ROOT + "/" + nodeLevel(nodeId) + "/" + n;
    }

    /** The one filter a node's warm-up clients may publish and subscribe under. */
    public static String filter(String nodeId) {
        return ROOT + "/" + nodeLevel(nodeId) + "/#";
    }
}
