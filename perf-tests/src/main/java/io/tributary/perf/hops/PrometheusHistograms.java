package io.tributary.perf.hops;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The histograms of one Prometheus text page (version 0.0.4): for every {@code <name>_bucket} series whose name
 * starts with the given prefix, its cumulative count per bucket bound ({@code le}, seconds; +Inf as infinity), keyed
 * by the series name and its labels without {@code le}. Everything else on the page is ignored.
 */
final class PrometheusHistograms {

    private PrometheusHistograms() {}

    /** Series key ({@code name{labels without le}}) to bound to cumulative count. */
    static Map<String, TreeMap<Double, Double>> parse(String page, String prefix) {
        Map<String, TreeMap<Double, Double>> out = new HashMap<>();
        for (String line : page.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#' || !line.startsWith(prefix)) {
                continue;
            }
            int brace = line.indexOf('{');
            int close = line.lastIndexOf('}');
            if (brace < 0 || close < brace || !line.startsWith("_bucket", brace - "_bucket".length())) {
                continue;
            }
            String name = line.substring(0, brace - "_bucket".length());
            String labels = line.substring(brace + 1, close);
            Double le = null;
            StringBuilder rest = new StringBuilder();
            for (String label : splitLabels(labels)) {
                if (label.startsWith("le=\"")) {
                    String bound = label.substring(4, label.length() - 1);
                    le = "+Inf".equals(bound) ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
                } else if (!label.isEmpty()) {
                    rest.append(rest.length() == 0 ? "" : ",").append(label);
                }
            }
            String value = line.substring(close + 1).trim();
            int space = value.indexOf(' ');
            if (le == null || value.isEmpty()) {
                continue;
            }
            double count = Double.parseDouble(space < 0 ? value : value.substring(0, space));
            out.computeIfAbsent(name + "{" + rest + "}", k -> new TreeMap<>()).put(le, count);
        }
        return out;
    }

    /** {@code a="x",b="y,z"} into its labels, commas inside quoted values kept. */
    private static List<String> splitLabels(String labels) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < labels.length(); i++) {
            char c = labels.charAt(i);
            if (c == '\\' && i + 1 < labels.length()) {
                current.append(c).append(labels.charAt(++i));
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                out.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        out.add(current.toString());
        return out;
    }
}
