package io.tributary.perf.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {

    private static final String VALID = """
            name: sample
            warm-up: 2s
            duration: 1m
            drain: 500ms
            targets: [127.0.0.1:1883, "tls://localhost:8883"]
            mqtt-version: 5
            publishers:
              - name: pub
                count: 3
                topic: "t/{n*9+k}"
                topics-per-publisher: 9
                qos: 1
                payload-size: 16
                rate: 2.5
                session-expiry: 24h
                clean-start: false
                keep-alive: 30m
            subscribers:
              - name: sub
                count: 27
                filter: "t/{n}"
                qos: 2
                ramp: 500
            connections:
              - name: idle
                count: 10
                mqtt-version: 3.1.1
            """;

    @Test
    void readsEveryFieldTyped() {
        Scenario s = ScenarioLoader.parse("test", "fallback", VALID);

        assertThat(s.name()).isEqualTo("sample");
        assertThat(s.warmUp()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.duration()).isEqualTo(Duration.ofMinutes(1));
        assertThat(s.drain()).isEqualTo(Duration.ofMillis(500));
        PublisherGroup pub = s.publishers().get(0);
        assertThat(pub.client().protocol()).isEqualTo(MqttProtocol.V5);
        assertThat(pub.client().sessionExpiry()).isEqualTo(Duration.ofHours(24));
        assertThat(pub.client().keepAlive()).isEqualTo(Duration.ofMinutes(30));
        assertThat(pub.client().cleanStart()).isFalse();
        assertThat(pub.client().targets())
                .containsExactly(new Endpoint("127.0.0.1", 1883, false), new Endpoint("localhost", 8883, true));
        assertThat(pub.rate()).isEqualTo(2.5);
        assertThat(pub.topicFor(2, 8, "r")).isEqualTo("t/26");
        assertThat(s.subscribers().get(0).client().qos()).isEqualTo(2);
        assertThat(s.subscribers().get(0).client().rampPerSecond()).isEqualTo(500);
        assertThat(s.connections().get(0).protocol()).isEqualTo(MqttProtocol.V3_1_1);
        assertThat(s.offeredRate()).isEqualTo(7.5);
        assertThat(s.connectionCount()).isEqualTo(40);
        assertThat(s.sourceText()).isEqualTo(VALID);
    }

    @Test
    void reportsEveryProblemWithItsPath() {
        String bad = """
                duraton: 30s
                targets: [127.0.0.1:1883]
                publishers:
                  - count: 2
                    qos: 3
                    topic: "a/#"
                    payload-size: 8
                    session-expiry: 1h
                subscribers:
                  - count: -1
                    filter: "a/#/b"
                  - filter: "x/{m}"
                """;

        assertThatThrownBy(() -> ScenarioLoader.parse("bad.yaml", "bad", bad))
                .isInstanceOf(ScenarioException.class)
                .satisfies(e -> assertThat(((ScenarioException) e).problems())
                        .contains(
                                "duraton: unknown key (known: connections, description, drain, duration, end-sessions,"
                                        + " io-threads, mqtt-version, name, publishers, source-addresses, subscribers,"
                                        + " targets, tls, warm-up)",
                                "publishers[0].qos: 3 is outside 0..2",
                                "publishers[0].payload-size: 8 is outside 16..16777216",
                                "publishers[0].session-expiry: needs mqtt-version 5 (MQTT 3.1.1 has clean-session only)",
                                "publishers[0].topic: a publish topic cannot contain '+' or '#' (rendered 'a/#')",
                                "subscribers[0].count: -1 is outside 0..2000000",
                                "subscribers[0].filter: '#' must be a whole level and the last one (rendered 'a/#/b')",
                                "subscribers[1].filter: 'x/{m}': in {m}: unknown placeholder 'm' (known: n, i, k, group,"
                                        + " run)"))
                .hasMessageStartingWith("bad.yaml is not a valid scenario:");
    }

    @Test
    void refusesFilesWithoutClientsOrTargets() {
        assertThatThrownBy(() -> ScenarioLoader.parse("empty", "e", "name: nothing\n"))
                .hasMessageContaining("the scenario has no publishers, subscribers or connections");
        assertThatThrownBy(() -> ScenarioLoader.parse("no-target", "n", "subscribers:\n  - filter: a\n"))
                .hasMessageContaining("subscribers[0].targets: no target");
        assertThatThrownBy(() -> ScenarioLoader.parse("yaml", "y", "publishers: [\n"))
                .hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> ScenarioLoader.parse("list", "l", "- a\n- b\n"))
                .hasMessageContaining("the file: expected a mapping");
        assertThatThrownBy(() -> ScenarioLoader.parse("slots", "s", """
                targets: [127.0.0.1:1]
                publishers:
                  - topic: same
                    topics-per-publisher: 3
                """)).hasMessageContaining("does not use {k}");
    }

    @Test
    void numbersPublishersAndSubscribersDenselyAcrossGroupsAndScaling() {
        Scenario s = ScenarioLoader.parse("ids", "ids", """
                targets: [127.0.0.1:1883]
                subscribers:
                  - {name: a, count: 4, filter: "a/{n}"}
                  - {name: b, count: 6, filter: "b/{i}"}
                publishers:
                  - {name: p, count: 5, topic: "p/{n}", filter: "p/{n}"}
                  - {name: q, count: 2, topic: "q/{i}"}
                """);

        assertThat(s.subscribers()).extracting(SubscriberGroup::firstId).containsExactly(0, 4);
        assertThat(s.publishers()).extracting(PublisherGroup::firstId).containsExactly(0, 5);
        assertThat(s.publishers()).extracting(PublisherGroup::firstSubscriberId).containsExactly(10, -1);
        assertThat(s.subscribers().get(1).filterFor(0, "r")).isEqualTo("b/4");
        assertThat(s.subscriberCount()).isEqualTo(15);

        Scenario half = s.scaled(0.5);
        assertThat(half.subscribers()).extracting(g -> g.client().count()).containsExactly(2, 3);
        assertThat(half.subscribers()).extracting(SubscriberGroup::firstId).containsExactly(0, 2);
        assertThat(half.publishers()).extracting(PublisherGroup::firstId).containsExactly(0, 3);
        assertThat(half.publishers())
                .extracting(PublisherGroup::firstSubscriberId)
                .containsExactly(5, -1);
        assertThat(half.publishers().get(1).topicFor(0, 0, "r")).isEqualTo("q/3");
    }

    @Test
    void aPublisherGroupSendsSpreadUnlessItAsksToBeInPhase() {
        Scenario s = ScenarioLoader.parse("phase", "phase", """
                warm-up: 0s
                targets: [127.0.0.1:1883]
                publishers:
                  - {name: meters, count: 20, topic: "m/{n}", rate: 50, phase: aligned}
                  - {name: smooth, count: 2, topic: "s/{n}", phase: Spread}
                  - {name: plain, count: 2, topic: "p/{n}"}
                """);

        assertThat(s.warmUp()).isZero();
        assertThat(s.publishers())
                .extracting(PublisherGroup::phase)
                .containsExactly(PublishPhase.ALIGNED, PublishPhase.SPREAD, PublishPhase.SPREAD);
        // Scaling and --rate-factor rebuild the groups: the phase must survive both.
        assertThat(s.scaled(0.5).withRateFactor(2).publishers().get(0).phase()).isEqualTo(PublishPhase.ALIGNED);
        assertThatThrownBy(() -> ScenarioLoader.parse("bad", "bad", """
                        targets: [127.0.0.1:1883]
                        publishers:
                          - {topic: "m/{n}", phase: together}
                        """))
                .isInstanceOf(ScenarioException.class)
                .satisfies(e -> assertThat(((ScenarioException) e).problems())
                        .containsExactly("publishers[0].phase: 'together' is not a phase: use spread or aligned"));
    }

    @Test
    void everyShippedScenarioIsValid() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(Path.of("scenarios"))) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "fan-out.yaml",
                        "fan-out-in-phase.yaml",
                        "light-traffic.yaml",
                        "asymmetric-persistent.yaml",
                        "connection-storm.yaml",
                        "million-persistent.yaml",
                        "million-persistent-scaled.yaml",
                        "tls-vs-plain-10k.yaml",
                        "tls-vs-plain-50k.yaml");
        for (Path file : files) {
            Scenario s = ScenarioLoader.load(file);
            assertThat(s.name())
                    .as(file.toString())
                    .isEqualTo(file.getFileName().toString().replace(".yaml", ""));
            assertThat(s.connectionCount()).as(file.toString()).isPositive();
        }
    }

    @Test
    void endpointsAreParsedAndOnlyLoopbackResolves() {
        assertThat(Endpoint.parse("tls://127.0.0.1:8883")).isEqualTo(new Endpoint("127.0.0.1", 8883, true));
        assertThat(Endpoint.parse("[::1]:1883")).isEqualTo(new Endpoint("::1", 1883, false));
        assertThat(Endpoint.parse("localhost:1883")
                        .resolveLoopback()
                        .getAddress()
                        .isLoopbackAddress())
                .isTrue();
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1:1883").resolveLoopback())
                .hasMessageContaining("not a loopback address")
                .hasMessageContaining("--allow-remote");
        // Only when explicitly allowed (the cluster perf Jobs): a remote address resolves.
        assertThat(Endpoint.parse("10.0.0.1:1883").resolve(true).getAddress().getHostAddress())
                .isEqualTo("10.0.0.1");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1:1883").resolve(false))
                .hasMessageContaining("not a loopback address");
        assertThatThrownBy(() -> Endpoint.parse("http://a:1")).hasMessageContaining("unknown scheme");
        assertThatThrownBy(() -> Endpoint.parse("a:99999")).hasMessageContaining("outside 1..65535");
        assertThatThrownBy(() -> Endpoint.parse("nohost")).hasMessageContaining("not host:port");
    }

    @Test
    void durationsAcceptUnitsAndPlainSeconds() {
        assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("1.5m")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse("soon")).isNull();
    }
}
