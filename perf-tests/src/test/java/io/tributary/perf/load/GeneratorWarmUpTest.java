package io.tributary.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.client.ConnectionPlan;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.MqttProtocol;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The connect warm-up runs the real client path against the in-process responder, never the run's target. */
class GeneratorWarmUpTest {

    /** A target nothing listens on: a warm-up client that went there would fail, and none may be ready. */
    private static final Endpoint BROKER = new Endpoint("127.0.0.1", 1, false);

    private static GroupPlan group(String name, MqttProtocol protocol, boolean subscribes) {
        return new GroupPlan(
                name,
                !subscribes,
                10,
                100,
                n -> new ConnectionPlan(
                        name,
                        name + "-" + n,
                        BROKER,
                        protocol,
                        true,
                        0,
                        30,
                        subscribes ? new ConnectionPlan.SubscriberPlan(n, "a/" + n + "/#", 1) : null,
                        null));
    }

    @Test
    void every_client_gets_its_connack_and_suback_from_the_responder_and_none_goes_to_the_broker() throws Exception {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        RunConsole console =
                RunConsole.quiet(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        ConnectionWarmUp.Outcome outcome = GeneratorWarmUp.connections(
                200,
                List.of(group("subs5", MqttProtocol.V5, true), group("subs3", MqttProtocol.V3_1_1, true)),
                List.of(group("pubs", MqttProtocol.V3_1_1, false)),
                1,
                console);
        assertThat(outcome.opened()).isEqualTo(200);
        assertThat(outcome.ready())
                .as("CONNACK (and SUBACK) for all, MQTT 5 and 3.1.1")
                .isEqualTo(200);
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("200 of 200 connections ready");
    }

    @Test
    void nothing_to_shape_it_after_opens_nothing() throws Exception {
        assertThat(GeneratorWarmUp.connections(100, List.of(), List.of(), 1, RunConsole.quiet(System.out))
                        .opened())
                .isZero();
    }
}
