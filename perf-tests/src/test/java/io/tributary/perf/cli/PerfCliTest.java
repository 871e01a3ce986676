package io.tributary.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.perf.load.Role;
import io.tributary.perf.load.RunOptions;
import io.tributary.perf.scenario.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PerfCliTest {

    @Test
    void remote_targets_are_allowed_only_with_the_explicit_flag() {
        assertThat(CliRun.runOptions("run", "s.yaml", "--target", "transport-mqtt:1883")
                        .allowRemote())
                .isFalse();
        RunOptions allowed =
                CliRun.runOptions("run", "s.yaml", "--target", "transport-mqtt:1883", "--allow-remote", "--no-html");
        assertThat(allowed.allowRemote()).isTrue();
        assertThat(allowed.html()).isFalse();
    }

    @Test
    void run_keeps_its_defaults() {
        RunOptions o = CliRun.runOptions("run", "s.yaml");
        assertThat(o.scenarioFile()).isEqualTo(Path.of("s.yaml"));
        assertThat(o.role()).isEqualTo(Role.ALL);
        assertThat(o.targets()).isEmpty();
        assertThat(o.warmUp()).isNull();
        assertThat(o.duration()).isNull();
        assertThat(o.scale()).isEqualTo(1);
        assertThat(o.rateFactor()).isEqualTo(1);
        assertThat(o.ramp()).isZero();
        assertThat(o.runId()).matches("[a-z0-9]{6}");
        assertThat(o.label()).isNull();
        assertThat(o.outDir()).isEqualTo(Path.of("target", "perf-results"));
        assertThat(o.brokerPids()).isEmpty();
        assertThat(o.brokerPatterns()).isEmpty();
        assertThat(o.ioThreads()).isZero();
        assertThat(o.sourceAddresses()).isZero();
        assertThat(o.maxConnections()).isEqualTo(2_000_000);
        assertThat(o.html()).isTrue();
        assertThat(o.allowRemote()).isFalse();
        assertThat(o.warmUpConnections()).isZero();
        assertThat(o.stallThreshold()).isEqualTo(Duration.ofMillis(50));
        assertThat(((RunCommand) CliRun.parsed("run", "s.yaml")).load.quiet).isFalse();
        assertThat(((CompareCommand) CliRun.parsed("compare", "s.yaml")).pause).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void run_reads_every_option_in_both_spellings() {
        RunOptions o = CliRun.runOptions(
                "run",
                "--target",
                "127.0.0.1:1884",
                "--target=tls://127.0.0.1:8883",
                "--role",
                "sub",
                "--run-id=k8s",
                "--label",
                "tributary",
                "--warm-up",
                "500ms",
                "--duration=2m",
                "--scale",
                "0.2",
                "--rate-factor",
                "1.5",
                "--ramp",
                "40",
                "--warm-up-connections",
                "1000",
                "--broker-pid",
                "42",
                "--broker-pid=43",
                "--broker-pgrep",
                "-D./tmp/perf-data/postgres",
                "--io-threads",
                "2",
                "--source-addresses",
                "3",
                "--max-connections",
                "50000",
                "--out",
                "/tmp/o",
                "--no-html",
                "--allow-remote",
                "--stall-threshold",
                "20ms",
                "s.yaml");
        assertThat(o.targets())
                .containsExactly(new Endpoint("127.0.0.1", 1884, false), new Endpoint("127.0.0.1", 8883, true));
        assertThat(o.role()).isEqualTo(Role.SUBSCRIBERS);
        assertThat(o.runId()).isEqualTo("k8s");
        assertThat(o.label()).isEqualTo("tributary");
        assertThat(o.warmUp()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.duration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(o.scale()).isEqualTo(0.2);
        assertThat(o.rateFactor()).isEqualTo(1.5);
        assertThat(o.ramp()).isEqualTo(40);
        assertThat(o.warmUpConnections()).isEqualTo(1000);
        assertThat(o.brokerPids()).containsExactly(42L, 43L);
        // A pattern may start with '-' (pgrep gets it after '--').
        assertThat(o.brokerPatterns()).containsExactly("-D./tmp/perf-data/postgres");
        assertThat(o.ioThreads()).isEqualTo(2);
        assertThat(o.sourceAddresses()).isEqualTo(3);
        assertThat(o.maxConnections()).isEqualTo(50_000);
        assertThat(o.outDir()).isEqualTo(Path.of("/tmp/o"));
        assertThat(o.html()).isFalse();
        assertThat(o.allowRemote()).isTrue();
        assertThat(o.stallThreshold()).isEqualTo(Duration.ofMillis(20));
        RunCommand run = (RunCommand) CliRun.parsed("run", "s.yaml", "--out-file", "/r/x.json", "-q");
        assertThat(run.outFile).isEqualTo(Path.of("/r/x.json"));
        assertThat(run.load.quiet).isTrue();
    }

    @Test
    void compare_pairs_each_broker_option_with_its_side() {
        CompareCommand c = (CompareCommand) CliRun.parsed(
                "compare",
                "s.yaml",
                "--target",
                "tributary=127.0.0.1:1884",
                "--target",
                "mosquitto=127.0.0.1:1883,127.0.0.1:1885",
                "--broker-pid",
                "tributary=42",
                "--broker-pgrep",
                "mosquitto=^mosquitto.-d",
                "--pause",
                "1s",
                "--scale",
                "0.3");
        List<CompareSides.Side> sides = CompareSides.parse(c.targets, c.brokerPids, c.brokerPatterns);
        assertThat(sides).extracting(CompareSides.Side::label).containsExactly("tributary", "mosquitto");
        assertThat(sides.get(0).pids()).containsExactly(42L);
        assertThat(sides.get(1).targets()).hasSize(2);
        assertThat(sides.get(1).patterns()).containsExactly("^mosquitto.-d");
        assertThat(c.pause).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.load.scale).isEqualTo(0.3);
        assertThatThrownBy(() -> CompareSides.parse(c.targets, List.of("other=1"), List.of()))
                .hasMessageContaining("broker option 'other=1' must start with one of the target labels");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            run s.yaml --scale abc              | Invalid value for option '--scale': 'abc' must be a number > 0
            run s.yaml --rate-factor 0          | Invalid value for option '--rate-factor': '0' must be a number > 0
            run s.yaml --io-threads 2.5         | Invalid value for option '--io-threads': '2.5' must be a whole number > 0
            run s.yaml --duration soon          | Invalid value for option '--duration': 'soon' is not a duration like 30s
            run s.yaml --role everyone          | Invalid value for option '--role': must be publishers, subscribers or all, not 'everyone'
            run s.yaml --run-id a/b             | Invalid value for option '--run-id': 'a/b' must be 1-40 letters
            run s.yaml --target nohost          | Invalid value for option '--target'
            run s.yaml --bogus 1                | Unknown options: '--bogus', '1'
            run s.yaml --ramp                   | Missing required parameter for option '--ramp'
            run                                 | Missing required parameter: 'SCENARIO.yaml'
            run a.yaml b.yaml                   | Unmatched argument at index 2: 'b.yaml'
            frobnicate s.yaml                   | unknown command 'frobnicate'
            compare s.yaml --target a=127.0.0.1:1 | compare needs exactly two --target LABEL=ENDPOINT[,ENDPOINT]
            compare s.yaml --target a=127.0.0.1:1 --target b=127.0.0.1:2 --role pub | compare runs both roles itself; drop --role
            compare s.yaml --target a=127.0.0.1:1 --target a=127.0.0.1:2 | compare: the two targets need different labels
            compare s.yaml --run-id x           | Unknown options: '--run-id', 'x'
            merge a.json                        | merge needs two or more result files
            validate                            | validate needs one or more scenario files
            validate --scale -1 x.yaml          | Invalid value for option '--scale': '-1' must be a number > 0
            report                              | Missing required parameter: 'RESULT.json'
            """)
    void a_bad_command_line_exits_2_with_a_message_naming_what_is_wrong(String line, String message) {
        CliRun r = CliRun.of(line.trim().split("\\s+"));
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("error: " + message);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void without_a_command_it_prints_the_overview_and_exits_2() {
        CliRun r = CliRun.of();
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out())
                .contains(
                        "Usage: perf [-h] COMMAND",
                        "run",
                        "compare",
                        "merge",
                        "validate",
                        "report",
                        "loopback addresses only",
                        "Scenario format: perf-tests/scenarios/README.md");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void the_overview_on_request_exits_0(String flag) {
        CliRun r = CliRun.of(flag);
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Usage: perf [-h] COMMAND");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            run      | --target=EP | --warm-up-connections=N | --out-file=FILE.json | --quiet
            compare  | --target=LABEL=EP[,EP] | --broker-pgrep=LABEL=PATTERN | --pause=D | --quiet
            merge    | RESULT.json | --out-file=FILE.json | --no-html | --help
            validate | SCENARIO.yaml | --scale=F | --help | --help
            report   | RESULT.json | --stall-threshold=D | --help | --help
            """)
    void each_command_has_its_own_help(String command, String a, String b, String c, String d) {
        for (String[] args : List.of(new String[] {command, "--help"}, new String[] {"help", command}, new String[] {
            command, "some.yaml", "-h"
        })) {
            CliRun r = CliRun.of(args);
            assertThat(r.exitCode()).isZero();
            assertThat(r.out()).contains("Usage: perf " + command, a, b, c, d);
        }
        assertThat(CliRun.of(command, "--help").out()).doesNotContain("Commands:");
    }

    @Test
    void run_help_keeps_the_documented_defaults() {
        assertThat(CliRun.of("run", "--help").out())
                .contains(
                        "(default: all)",
                        "(default: 2000000)",
                        "(default: target/perf-results, git-ignored)",
                        ".e2e.hlog");
        assertThat(CliRun.of("compare", "--help").out()).contains("(default: 5s)");
    }

    @Test
    void validate_checks_the_shipped_scenarios() {
        CliRun r = CliRun.of("validate", "scenarios/fan-out.yaml", "scenarios/connection-storm.yaml", "--scale", "0.2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("scenarios/fan-out.yaml: ok", "scenarios/connection-storm.yaml: ok — 3000 connections");
    }

    @Test
    void an_invalid_scenario_exits_2_with_its_problems() {
        CliRun r = CliRun.of("validate", "no-such-scenario.yaml");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no-such-scenario.yaml");
    }

    @Test
    void an_unreadable_result_exits_1() {
        CliRun r = CliRun.of("report", "no-such-result.json");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("error: ");
    }
}
