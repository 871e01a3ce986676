package io.tributary.perf.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU and resident memory of given processes, read from /proc (Linux). CPU is utime + stime in clock ticks, turned
 * into percent of one core between two samples (100 = one core busy).
 */
public final class ProcessSampler {

    /** Linux has used 100 ticks per second (USER_HZ) on every mainstream architecture. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** One process at one instant; rssBytes = -1 when it is gone. */
    public record Reading(long pid, long cpuTicks, long rssBytes) {}

    private final Map<Long, String> labels = new LinkedHashMap<>();
    private Map<Long, Reading> previous = Map.of();
    private long previousNanos;

    public ProcessSampler(List<Long> pids) {
        for (long pid : pids) {
            labels.put(pid, describe(pid));
        }
    }

    public Map<Long, String> labels() {
        return labels;
    }

    /** Aggregate over all processes since the previous call. */
    public record Usage(double cpuPercent, long rssBytes, Map<Long, Double> cpuByPid, Map<Long, Long> rssByPid) {}

    public synchronized Usage sample() {
        long now = System.nanoTime();
        Map<Long, Reading> current = new LinkedHashMap<>();
        for (long pid : labels.keySet()) {
            current.put(pid, read(pid));
        }
        double seconds = (now - previousNanos) / 1e9;
        double cpu = 0;
        long rss = 0;
        Map<Long, Double> cpuByPid = new LinkedHashMap<>();
        Map<Long, Long> rssByPid = new LinkedHashMap<>();
        for (Reading r : current.values()) {
            Reading before = previous.get(r.pid());
            double pct = 0;
            if (before != null && r.rssBytes() >= 0 && before.rssBytes() >= 0 && seconds > 0) {
                pct = (r.cpuTicks() - before.cpuTicks()) / TICKS_PER_SECOND / seconds * 100.0;
            }
            cpuByPid.put(r.pid(), pct);
            rssByPid.put(r.pid(), Math.max(0, r.rssBytes()));
            cpu += pct;
            rss += Math.max(0, r.rssBytes());
        }
        previous = current;
        previousNanos = now;
        return new Usage(cpu, rss, cpuByPid, rssByPid);
    }

    /** Reads one process; rss -1 when it does not exist (any more). */
    public static Reading read(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            long rss = -1;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
            return new Reading(pid, ticks, rss);
        } catch (IOException | RuntimeException e) {
            return new Reading(pid, 0, -1);
        }
    }

    /** A short name: the executable, and for a JVM the jar or main class it runs. */
    public static String describe(long pid) {
        try {
            String[] args = new String(
                            Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                    .split("\0");
            String exe = Path.of(args[0]).getFileName().toString();
            if (!exe.equals("java")) {
                return exe + " (" + pid + ")";
            }
            for (int i = 1; i < args.length; i++) {
                if (args[i].equals("-jar") && i + 1 < args.length) {
                    return Path.of(args[i + 1]).getFileName().toString() + " (" + pid + ")";
                }
                if (args[i].equals("-cp") || args[i].equals("-classpath") || args[i].equals("--class-path")) {
                    i++;
                } else if (!args[i].startsWith("-")) {
                    return args[i] + " (" + pid + ")";
                }
            }
            return "java (" + pid + ")";
        } catch (IOException | RuntimeException e) {
            return "pid " + pid;
        }
    }

    /** PIDs whose command line matches the pattern (pgrep -f), without this process and its ancestors. */
    public static List<Long> pgrep(String pattern) {
        List<Long> exclude = new ArrayList<>();
        ProcessHandle.current().parent().ifPresent(p -> collectAncestors(p, exclude));
        exclude.add(ProcessHandle.current().pid());
        List<Long> found = new ArrayList<>();
        try {
            Process process = new ProcessBuilder("pgrep", "-f", "--", pattern)
                    .redirectErrorStream(true)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            for (String line : out.split("\\s+")) {
                if (!line.isBlank() && line.chars().allMatch(Character::isDigit)) {
                    long pid = Long.parseLong(line);
                    if (!exclude.contains(pid) && pid != process.pid()) {
                        found.add(pid);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run pgrep: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return found;
    }

    private static void collectAncestors(ProcessHandle handle, List<Long> out) {
        out.add(handle.pid());
        handle.parent().ifPresent(p -> collectAncestors(p, out));
    }
}
