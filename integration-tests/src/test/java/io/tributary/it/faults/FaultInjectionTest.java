package io.tributary.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.SteadyStream;
import io.tributary.it.support.TributaryCluster;
import io.tributary.it.support.TributaryCluster.Service;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One failure at a time during a steady QoS 1 and QoS 2 stream to persistent subscribers on both transport nodes:
 * every message acknowledged to the publisher must reach every subscriber. Counts are printed ({@code [fault]}
 * lines) whatever the outcome. Each test leaves the cluster whole again. Runs after the other test classes (it kills
 * and restarts parts of the shared cluster), before the Kafka outage test.
 */
@Order(Integer.MAX_VALUE - 1)
@ExtendWith(LogsOnFailure.class)
class FaultInjectionTest {

    private static final int RATE = 50;
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private interface Fault {
        void inject() throws Exception;
    }

    /**
     * Runs a QoS 1 and a QoS 2 stream, publishers on node 2, a subscriber on each node; injects the fault after two
     * seconds of traffic; keeps publishing for a few seconds after it; then waits for delivery.
     *
     * @param qos2ExactlyOnce whether the fault leaves the publisher's connection alone, so QoS 2 must show no
     *                        duplicate at all (a publisher that loses its connection publishes again as a new message)
     */
    private void survive(String name, boolean qos2ExactlyOnce, Fault fault) throws Exception {
        int[] ports = {cluster.mqttPort(0), cluster.mqttPort(1)};
        try (SteadyStream qos1 = new SteadyStream(name, 1, RATE, ports);
                SteadyStream qos2 = new SteadyStream(name, 2, RATE, ports)) {
            qos1.subscriber(0).subscriber(1).startPublishing(1);
            qos2.subscriber(0).subscriber(1).startPublishing(1);
            TimeUnit.SECONDS.sleep(2);
            fault.inject();
            TimeUnit.SECONDS.sleep(3);
            qos1.stopPublishing();
            qos2.stopPublishing();
            SteadyStream.Report r1 = qos1.awaitDelivered(90);
            SteadyStream.Report r2 = qos2.awaitDelivered(90);
            System.out.println(r1);
            System.out.println(r2);
            assertThat(r1.acknowledged()).as("the stream ran").isGreaterThan(RATE);
            assertThat(r1.lost()).as("QoS 1 acknowledged messages lost").isZero();
            assertThat(r2.lost()).as("QoS 2 acknowledged messages lost").isZero();
            if (qos2ExactlyOnce) {
                assertThat(r2.duplicates()).as("QoS 2 duplicates").isZero();
            }
        }
    }

    @Test
    void transport_node_killed_clients_move_to_the_other_node() throws Exception {
        try {
            survive("kill-transport", false, () -> cluster.kill(Service.TRANSPORT_2));
        } finally {
            cluster.restart(Service.TRANSPORT_2);
        }
    }

    @Test
    void routing_service_killed_and_restarted() throws Exception {
        survive("kill-routing", true, () -> {
            cluster.kill(Service.ROUTING);
            TimeUnit.SECONDS.sleep(1);
            cluster.restart(Service.ROUTING);
        });
    }

    @Test
    void session_service_killed_and_restarted() throws Exception {
        survive("kill-session", true, () -> {
            cluster.kill(Service.SESSION);
            TimeUnit.SECONDS.sleep(1);
            cluster.restart(Service.SESSION);
        });
    }

    @Test
    void redis_restarted() throws Exception {
        survive("restart-redis", true, cluster::restartRedis);
    }

    @Test
    void postgres_restarted() throws Exception {
        survive("restart-postgres", true, cluster::restartPostgres);
    }

    @Test
    void kafka_broker_killed_and_restarted() throws Exception {
        survive("restart-kafka", false, () -> {
            cluster.killKafka();
            TimeUnit.SECONDS.sleep(2);
            cluster.restartKafka();
        });
    }
}
