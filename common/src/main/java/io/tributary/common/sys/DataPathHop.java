package io.tributary.common.sys;

import java.util.Locale;

/**
 * The hops of a message's way through the cluster whose latency the services measure themselves and publish under
 * {@code $SYS} (p50 and p99 of their recent window, in milliseconds): each hop is measured by the service that sees
 * both of its ends, so the figures need no clock shared between processes beyond the Kafka record timestamps.
 */
public enum DataPathHop {
    /** Transport node: a publish record sent to Kafka until Kafka acknowledged it (what a PUBACK waits for). */
    PUBLISH_ACK("publish-ack", Reporter.NODE),
    /** Router: the publish record's timestamp (its transport node produced it) until a router read it. */
    PUBLISH_TO_ROUTER("publish-to-router", Reporter.ROUTER),
    /** Router: a polled batch of publishes until its downlink records and session-queue appends were acknowledged. */
    ROUTE("route", Reporter.ROUTER),
    /** Transport node: the downlink record's timestamp (the router produced it) until the node read it. */
    DOWNLINK_TO_NODE("downlink-to-node", Reporter.NODE),
    /** Transport node: the poll that read a downlink batch until its PUBLISH packets were written and flushed. */
    NODE_TO_SOCKET("node-to-socket", Reporter.NODE);

    /** Which service measures a hop, and so publishes its figures. */
    public enum Reporter {
        NODE,
        ROUTER
    }

    public static final String P50 = "p50";
    public static final String P99 = "p99";

    private final String id;
    private final Reporter reporter;

    DataPathHop(String id, Reporter reporter) {
        this.id = id;
        this.reporter = reporter;
    }

    /** The hop's name in topics and in the admin API, e.g. {@code publish-ack}. */
    public String id() {
        return id;
    }

    public Reporter reporter() {
        return reporter;
    }

    /** The statistic's name below a node's or router's {@code $SYS} root, e.g. {@code latency/publish-ack/p99}. */
    public String statistic(String percentile) {
        return "latency/" + id + "/" + percentile;
    }

    /** A latency's payload: milliseconds with three decimals, whatever the locale. */
    public static String millis(double milliseconds) {
        return String.format(Locale.ROOT, "%.3f", milliseconds);
    }
}
