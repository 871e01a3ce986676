package io.tributary.deploy.compose;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The parts of haproxy.cfg the checks need: sections, binds, default backends, servers, timeouts, checks. */
public record HaproxyConfig(Map<String, List<List<String>>> sections) {

    /** @param sendProxyV2 whether the server line has {@code send-proxy-v2} (a PROXY protocol v2 header first) */
    public record Server(String name, String host, int port, Integer checkPort, boolean sendProxyV2) {}

    public static HaproxyConfig parse(String text) {
        Map<String, List<List<String>>> sections = new LinkedHashMap<>();
        List<List<String>> current = null;
        for (String raw : text.split("\n")) {
            String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')) : raw;
            if (line.isBlank()) {
                continue;
            }
            List<String> words = Arrays.asList(line.trim().split("\\s+"));
            if (!Character.isWhitespace(line.charAt(0))) {
                current = new ArrayList<>();
                sections.put(String.join(" ", words), current);
            } else if (current != null) {
                current.add(words);
            }
        }
        return new HaproxyConfig(sections);
    }

    private List<List<String>> section(String header) {
        List<List<String>> lines = sections.get(header);
        if (lines == null) {
            throw new IllegalArgumentException("haproxy.cfg has no section '" + header + "'");
        }
        return lines;
    }

    /** The frontend names bound to a port. */
    public List<String> frontendsBinding(int port) {
        List<String> names = new ArrayList<>();
        sections.forEach((header, lines) -> {
            if (header.startsWith("frontend ") && bindPorts(lines).contains(port)) {
                names.add(header.substring("frontend ".length()));
            }
        });
        return names;
    }

    /** Every port any frontend binds. */
    public List<Integer> allBindPorts() {
        List<Integer> ports = new ArrayList<>();
        sections.forEach((header, lines) -> {
            if (header.startsWith("frontend ")) {
                ports.addAll(bindPorts(lines));
            }
        });
        return ports;
    }

    private static List<Integer> bindPorts(List<List<String>> lines) {
        List<Integer> ports = new ArrayList<>();
        for (List<String> words : lines) {
            if (words.get(0).equals("bind")) {
                String address = words.get(1);
                ports.add(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
            }
        }
        return ports;
    }

    public String defaultBackend(String frontend) {
        return keyword(section("frontend " + frontend), "default_backend").get(1);
    }

    public List<Server> servers(String backend) {
        List<Server> servers = new ArrayList<>();
        for (List<String> words : section("backend " + backend)) {
            if (words.get(0).equals("server")) {
                String address = words.get(2);
                int colon = address.lastIndexOf(':');
                int portIndex = words.indexOf("port");
                servers.add(new Server(
                        words.get(1),
                        address.substring(0, colon),
                        Integer.parseInt(address.substring(colon + 1)),
                        words.contains("check") && portIndex > 0 ? Integer.valueOf(words.get(portIndex + 1)) : null,
                        words.contains("send-proxy-v2")));
            }
        }
        return servers;
    }

    /** The names of all backends. */
    public List<String> backends() {
        List<String> names = new ArrayList<>();
        sections.keySet().forEach(header -> {
            if (header.startsWith("backend ")) {
                names.add(header.substring("backend ".length()));
            }
        });
        return names;
    }

    /** The path of {@code option httpchk [METHOD] PATH} in a backend, or null. */
    public String httpCheckPath(String backend) {
        for (List<String> words : section("backend " + backend)) {
            if (words.size() >= 2
                    && words.get(0).equals("option")
                    && words.get(1).equals("httpchk")) {
                return words.get(words.size() - 1);
            }
        }
        return null;
    }

    /** A {@code timeout <name>} of the defaults section in seconds (HAProxy's default unit is milliseconds). */
    public double defaultTimeoutSeconds(String name) {
        for (List<String> words : section("defaults")) {
            if (words.size() == 3
                    && words.get(0).equals("timeout")
                    && words.get(1).equals(name)) {
                return seconds(words.get(2));
            }
        }
        throw new IllegalArgumentException("haproxy.cfg defaults have no timeout " + name);
    }

    static double seconds(String value) {
        String number = value.replaceAll("[a-z]+$", "");
        String unit = value.substring(number.length());
        double n = Double.parseDouble(number);
        return switch (unit) {
            case "us" -> n / 1_000_000;
            case "", "ms" -> n / 1000;
            case "s" -> n;
            case "m" -> n * 60;
            case "h" -> n * 3600;
            case "d" -> n * 86400;
            default -> throw new IllegalArgumentException("unknown time unit in " + value);
        };
    }

    private static List<String> keyword(List<List<String>> lines, String keyword) {
        return lines.stream()
                .filter(words -> words.get(0).equals(keyword))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + keyword));
    }
}
