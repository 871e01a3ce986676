package io.tributary.it.support;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks at one transport node from outside, as an operator would: actuator health, Prometheus metrics (JVM heap,
 * Netty buffers, drops), and the part of its log written since the probe was created.
 */
public final class NodeProbe {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final Path logFile;
    private final long logStart;

    public NodeProbe(TributaryCluster cluster, int node) throws IOException {
        this.baseUrl = cluster.transportManagementUrl(node);
        this.logFile = cluster.transportLog(node);
        this.logStart = logFile.toFile().length();
    }

    public String health() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/health"))
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    public String scrape() throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** Sum of every sample of {@code metric} whose labels contain all of {@code labels} (e.g. {@code area="heap"}). */
    public static double sum(String scrape, String metric, String... labels) {
        double total = 0;
        for (String line : scrape.split("\n")) {
            if (!line.startsWith(metric + "{") && !line.startsWith(metric + " ")) {
                continue;
            }
            boolean all = true;
            for (String label : labels) {
                all &= line.contains(label);
            }
            if (all) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    public double heapUsed() throws Exception {
        return sum(scrape(), "jvm_memory_used_bytes", "area=\"heap\"");
    }

    /** The old generation: it grows only by promotion, so a leak shows here rather than in the young churn. */
    public double oldGenUsed() throws Exception {
        return sum(scrape(), "jvm_memory_used_bytes", "area=\"heap\"", "Tenured Gen");
    }

    public double nettyDirectUsed() throws Exception {
        return sum(scrape(), "tributary_netty_memory_used_bytes", "area=\"direct\"");
    }

    /** Lines of the node's log written since this probe was created that show an exception's stack or a leak. */
    public List<String> stackTracesSinceStart() throws IOException {
        List<String> found = new ArrayList<>();
        try (RandomAccessFile f = new RandomAccessFile(logFile.toFile(), "r")) {
            f.seek(logStart);
            byte[] rest = new byte[(int) Math.max(0, f.length() - logStart)];
            f.readFully(rest);
            for (String line : new String(rest, StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("\tat ")
                        || line.startsWith("Caused by:")
                        || line.contains("LEAK:")
                        || line.contains(" ERROR ")
                        || line.contains("Exception in thread")) {
                    found.add(line);
                }
            }
        }
        return found;
    }
}
