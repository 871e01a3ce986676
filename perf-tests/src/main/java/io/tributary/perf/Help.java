package io.tributary.perf;

/** The --help text. */
final class Help {

    static final String TEXT = """
            perf — MQTT load generator and benchmark runner (Tributary perf-tests)

            usage:
              perf run SCENARIO.yaml [options]           run one scenario (or one role of it)
              perf compare SCENARIO.yaml --target A=EP --target B=EP [options]
                                                         the same scenario against two targets in turn, with ratios
              perf merge RESULT.json RESULT.json...      combine the results of --role publishers and subscribers
              perf validate SCENARIO.yaml...             check scenario files and print what they would run
              perf report RESULT.json                    write the HTML report of a result again

            endpoints (EP): host:port (plain TCP) or tls://host:port; loopback addresses only (127.0.0.0/8, ::1)
            unless --allow-remote is given.
            Several endpoints: repeat --target (run) or separate them with commas (compare); clients are spread
            over them round robin.

            run options:
              --target EP               replace every group's targets (repeatable)
              --role R                  publishers | subscribers | all (default all). For two processes, start
                                        subscribers first, give both the same --run-id, then 'merge' the results
              --run-id ID               shared id (client ids and {run} placeholders); random by default
              --label NAME              names the target in results (e.g. tributary, mosquitto)
              --warm-up D, --duration D override the scenario's timings (500ms, 30s, 5m)
              --scale F                 multiply every group's count by F
              --rate-factor F           multiply every publisher's rate by F (find a broker's limit)
              --ramp R                  every group connects at R connections per second
              --warm-up-connections N   first open and close N clean connections at the first group's ramp,
                                        not measured: a cold generator adds 100s of ms to its first connects
              --broker-pid PID          sample this process's CPU and RSS (repeatable)
              --broker-pgrep PATTERN    sample every process whose command line matches (pgrep -f; repeatable)
              --io-threads N            event loop threads (default: one per core)
              --source-addresses N      spread connections over 127.0.0.1..127.0.0.N (default: one per 25k)
              --max-connections N       refuse scenarios opening more in this process (default 2000000)
              --out DIR                 where results go (default target/perf-results, git-ignored)
              --out-file FILE.json      exact result file (run, merge)
              --no-html                 JSON only
              --allow-remote            accept targets outside loopback (load goes over the network to them)

            compare options: as run, plus
              --target LABEL=EP[,EP]    exactly twice
              --broker-pgrep LABEL=PATTERN, --broker-pid LABEL=PID   broker processes of each side
              --pause D                 pause between the two runs (default 5s)

            Every run is bounded: ramp + warm-up + duration + drain + fixed grace periods, then it stops by itself.
            The open-file limit (ulimit -n) caps connections per process; a warning says so when a scenario
            exceeds it. Output: one progress line per second, a JSON result and a self-contained HTML report.
            Scenario format: perf-tests/scenarios/README.md
            """;

    private Help() {
    }
}
