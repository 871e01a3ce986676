package io.tributary.perf.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The open-file limit (ulimit -n) of this process: every connection is a file descriptor. */
public final class FileLimits {

    /** Descriptors the JVM, the event loops and the report need besides the connections. */
    public static final int RESERVED = 200;

    /** Soft and hard limit; -1 when unlimited or unknown. */
    public record Limits(long soft, long hard) {}

    private FileLimits() {}

    public static Limits current() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] parts =
                            line.substring("Max open files".length()).trim().split("\\s+");
                    return new Limits(parse(parts[0]), parse(parts[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or /proc unreadable: no limit known.
        }
        return new Limits(-1, -1);
    }

    /** A warning when {@code connections} will not fit, else null. */
    public static String warning(int connections, Limits limits) {
        if (limits.soft() < 0 || connections + RESERVED <= limits.soft()) {
            return null;
        }
        return "this process would open " + connections + " connections but its open-file limit (ulimit -n) is "
                + limits.soft() + " (hard limit " + (limits.hard() < 0 ? "unlimited" : limits.hard()) + "): at most ~"
                + Math.max(0, limits.soft() - RESERVED) + " will connect. Raise it with 'ulimit -n <n>' before starting"
                + " (bin/perf raises the soft limit to the hard one), split the load over several processes"
                + " (--role), or lower the counts (--scale). The broker needs as many descriptors as well.";
    }

    private static long parse(String text) {
        return text.equals("unlimited") ? -1 : Long.parseLong(text);
    }
}
