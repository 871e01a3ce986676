package io.tributary.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import io.tributary.perf.load.Role;
import io.tributary.perf.load.RunOptions;
import io.tributary.perf.scenario.Endpoint;

/**
 * Parses the options after the command word. Every option is checked here, so a typo fails before any connection
 * is opened.
 */
final class CommandLine {

    /** One {@code --target LABEL=ENDPOINT[,ENDPOINT]} of compare, with its own broker processes. */
    record CompareSide(String label, List<Endpoint> targets, List<Long> pids, List<String> patterns) {
    }

    final List<String> positional = new ArrayList<>();
    final List<String> rawTargets = new ArrayList<>();
    final List<String> rawPids = new ArrayList<>();
    final List<String> rawPatterns = new ArrayList<>();
    Role role = Role.ALL;
    Duration warmUp;
    Duration duration;
    double scale = 1;
    double rateFactor = 1;
    double ramp;
    String runId;
    String label;
    Path outDir = Path.of("target", "perf-results");
    Path outFile;
    int ioThreads;
    int sourceAddresses;
    int maxConnections = 2_000_000;
    int warmUpConnections;
    boolean html = true;
    /** Load may go to non-loopback targets: only when asked for (the cluster perf Jobs target a Service). */
    boolean allowRemote;
    Duration pause = Duration.ofSeconds(5);

    static CommandLine parse(List<String> args) {
        CommandLine cl = new CommandLine();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            if (!arg.startsWith("--")) {
                cl.positional.add(arg);
                continue;
            }
            if (arg.equals("--no-html")) {
                cl.html = false;
                continue;
            }
            if (arg.equals("--allow-remote")) {
                cl.allowRemote = true;
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                value = args.get(++i);
            }
            switch (arg) {
                case "--role" -> cl.role = Role.parse(value);
                case "--target" -> cl.rawTargets.add(value);
                case "--warm-up" -> cl.warmUp = duration(arg, value);
                case "--duration" -> cl.duration = duration(arg, value);
                case "--pause" -> cl.pause = duration(arg, value);
                case "--scale" -> cl.scale = positive(arg, value);
                case "--rate-factor" -> cl.rateFactor = positive(arg, value);
                case "--ramp" -> cl.ramp = positive(arg, value);
                case "--run-id" -> cl.runId = checkedId(value);
                case "--label" -> cl.label = checkedId(value);
                case "--out" -> cl.outDir = Path.of(value);
                case "--out-file" -> cl.outFile = Path.of(value);
                case "--broker-pid" -> cl.rawPids.add(value);
                case "--broker-pgrep" -> cl.rawPatterns.add(value);
                case "--io-threads" -> cl.ioThreads = (int) positive(arg, value);
                case "--source-addresses" -> cl.sourceAddresses = (int) positive(arg, value);
                case "--max-connections" -> cl.maxConnections = (int) positive(arg, value);
                case "--warm-up-connections" -> cl.warmUpConnections = (int) positive(arg, value);
                default -> throw new IllegalArgumentException("unknown option " + arg + " (see --help)");
            }
        }
        return cl;
    }

    RunOptions runOptions(Path scenario) {
        List<Endpoint> targets = rawTargets.stream().map(Endpoint::parse).toList();
        List<Long> pids = rawPids.stream().map(CommandLine::pid).toList();
        return new RunOptions(scenario, role, targets, warmUp, duration, scale, rateFactor, ramp,
                runId != null ? runId : newRunId(), label, outDir, pids, rawPatterns, ioThreads, sourceAddresses,
                maxConnections, html, allowRemote, warmUpConnections);
    }

    /** Options shared by both sides of compare; targets and broker processes come from {@link #compareSides()}. */
    RunOptions compareBase(Path scenario) {
        return new RunOptions(scenario, role, List.of(), warmUp, duration, scale, rateFactor, ramp, newRunId(), label,
                outDir, List.of(), List.of(), ioThreads, sourceAddresses, maxConnections, html, allowRemote,
                warmUpConnections);
    }

    /** The two sides of compare: {@code --target a=host:port}, {@code --broker-pgrep a=PATTERN}, ... */
    List<CompareSide> compareSides() {
        if (rawTargets.size() != 2) {
            throw new IllegalArgumentException("compare needs exactly two --target LABEL=ENDPOINT[,ENDPOINT]");
        }
        List<CompareSide> sides = new ArrayList<>();
        for (String raw : rawTargets) {
            int eq = raw.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("compare: --target must be LABEL=ENDPOINT, not '" + raw + "'");
            }
            String sideLabel = checkedId(raw.substring(0, eq));
            List<Endpoint> endpoints = List.of(raw.substring(eq + 1).split(",")).stream().map(Endpoint::parse)
                    .toList();
            List<Long> pids = forLabel(rawPids, sideLabel).stream().map(CommandLine::pid).toList();
            sides.add(new CompareSide(sideLabel, endpoints, pids, forLabel(rawPatterns, sideLabel)));
        }
        if (sides.get(0).label().equals(sides.get(1).label())) {
            throw new IllegalArgumentException("compare: the two targets need different labels");
        }
        for (String raw : concat(rawPids, rawPatterns)) {
            int eq = raw.indexOf('=');
            String l = eq > 0 ? raw.substring(0, eq) : "";
            if (sides.stream().noneMatch(s -> s.label().equals(l))) {
                throw new IllegalArgumentException("compare: broker option '" + raw + "' must start with one of the"
                        + " target labels (" + sides.get(0).label() + "=..., " + sides.get(1).label() + "=...)");
            }
        }
        return sides;
    }

    private static List<String> forLabel(List<String> raw, String label) {
        return raw.stream().filter(r -> r.startsWith(label + "=")).map(r -> r.substring(label.length() + 1))
                .toList();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static String newRunId() {
        long sixBase36Digits = 36L * 36 * 36 * 36 * 36;
        return Long.toString(ThreadLocalRandom.current().nextLong(sixBase36Digits, sixBase36Digits * 36), 36)
                .toLowerCase(Locale.ROOT);
    }

    private static String checkedId(String value) {
        if (!value.matches("[A-Za-z0-9._-]{1,40}")) {
            throw new IllegalArgumentException("'" + value + "' must be 1-40 letters, digits, '.', '_' or '-'");
        }
        return value;
    }

    private static Duration duration(String option, String value) {
        Duration d = io.tributary.perf.scenario.Durations.parse(value);
        if (d == null) {
            throw new IllegalArgumentException(option + ": '" + value + "' is not a duration like 30s, 500ms, 5m");
        }
        return d;
    }

    private static double positive(String option, String value) {
        try {
            double d = Double.parseDouble(value);
            if (d > 0) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + ": '" + value + "' must be a number > 0");
    }

    private static long pid(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--broker-pid: '" + value + "' is not a process id");
        }
    }
}
