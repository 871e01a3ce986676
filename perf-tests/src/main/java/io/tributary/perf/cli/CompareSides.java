package io.tributary.perf.cli;

import io.tributary.perf.scenario.Endpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The sides of {@code compare} from {@code --target LABEL=EP[,EP]}, {@code --broker-pid LABEL=PID} and
 * {@code --broker-pgrep LABEL=PATTERN}: every broker option must name one of the targets' labels.
 */
final class CompareSides {

    /** One target of compare, with its own broker processes. */
    record Side(String label, List<Endpoint> targets, List<Long> pids, List<String> patterns) {}

    private CompareSides() {}

    static List<Side> parse(List<String> rawTargets, List<String> rawPids, List<String> rawPatterns) {
        if (rawTargets.size() != 2) {
            throw new IllegalArgumentException("compare needs exactly two --target LABEL=ENDPOINT[,ENDPOINT]");
        }
        List<Side> sides = new ArrayList<>();
        for (String raw : rawTargets) {
            int eq = raw.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("compare: --target must be LABEL=ENDPOINT, not '" + raw + "'");
            }
            String label = Converters.checkedId(raw.substring(0, eq));
            List<Endpoint> endpoints = List.of(raw.substring(eq + 1).split(",")).stream()
                    .map(Endpoint::parse)
                    .toList();
            List<Long> pids =
                    forLabel(rawPids, label).stream().map(CompareSides::pid).toList();
            sides.add(new Side(label, endpoints, pids, forLabel(rawPatterns, label)));
        }
        if (sides.get(0).label().equals(sides.get(1).label())) {
            throw new IllegalArgumentException("compare: the two targets need different labels");
        }
        List<String> brokerOptions = new ArrayList<>(rawPids);
        brokerOptions.addAll(rawPatterns);
        for (String raw : brokerOptions) {
            int eq = raw.indexOf('=');
            String label = eq > 0 ? raw.substring(0, eq) : "";
            if (sides.stream().noneMatch(s -> s.label().equals(label))) {
                throw new IllegalArgumentException(
                        "compare: broker option '" + raw + "' must start with one of the" + " target labels ("
                                + sides.get(0).label() + "=..., " + sides.get(1).label() + "=...)");
            }
        }
        return sides;
    }

    private static List<String> forLabel(List<String> raw, String label) {
        return raw.stream()
                .filter(r -> r.startsWith(label + "="))
                .map(r -> r.substring(label.length() + 1))
                .toList();
    }

    private static long pid(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--broker-pid: '" + value + "' is not a process id");
        }
    }

    /** The {@code --hops LABEL=URL} pages of the side labelled {@code label}. */
    static List<java.net.URI> hopPages(List<String> rawHops, String label) {
        List<java.net.URI> pages = new ArrayList<>();
        for (String raw : rawHops) {
            int eq = raw.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("compare: --hops must be LABEL=URL, not '" + raw + "'");
            }
            if (raw.substring(0, eq).equals(label)) {
                pages.add(java.net.URI.create(raw.substring(eq + 1)));
            }
        }
        return pages;
    }
}
