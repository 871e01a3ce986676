package io.tributary.perf.hops;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the services' own per-hop latency histograms during a run: every second it fetches each given Prometheus
 * page ({@code /actuator/prometheus} of a transport node, a router, session-service) and keeps, per hop series
 * ({@code tributary_*_seconds} histograms), what that second added. The run's stall report can then say, for each
 * stalled second, which hop took the time ({@link HopStallReport}). Scraping costs the services a page render a
 * second each; a page that cannot be fetched is skipped for that second and counted.
 */
public final class HopScraper implements AutoCloseable {

    static final String PREFIX = "tributary_";
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofMillis(800);

    private final List<URI> pages;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hop-scraper");
        t.setDaemon(true);
        return t;
    });
    /** A series' cumulative counts as last scraped, and when. */
    private record Snapshot(long atMillis, TreeMap<Double, Double> cumulative) {}

    /** Per page and series: its last snapshot. */
    private final Map<String, Snapshot> last = new ConcurrentHashMap<>();
    /** Per page and series, the windows in time order. */
    private final Map<String, List<HopWindow>> windows = new ConcurrentHashMap<>();

    private final AtomicInteger failures = new AtomicInteger();

    public HopScraper(List<URI> pages) {
        this.pages = List.copyOf(pages);
    }

    /** Takes a first snapshot now (the baseline), then one a second until {@link #close}. */
    public HopScraper start() {
        timer.scheduleAtFixedRate(this::scrapeAll, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void scrapeAll() {
        for (URI page : pages) {
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(page).timeout(TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                long now = System.currentTimeMillis();
                if (response.statusCode() != 200) {
                    failures.incrementAndGet();
                    continue;
                }
                record(page, now, PrometheusHistograms.parse(response.body(), PREFIX));
            } catch (IOException | RuntimeException e) {
                failures.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One snapshot of {@code page} taken at {@code nowMillis}; visible for tests. */
    void record(URI page, long nowMillis, Map<String, TreeMap<Double, Double>> snapshot) {
        snapshot.forEach((series, cumulative) -> {
            String key = page.getAuthority() + " " + series;
            Snapshot before = last.put(key, new Snapshot(nowMillis, cumulative));
            if (before != null) {
                HopWindow w = HopWindow.between(before.atMillis(), nowMillis, before.cumulative(), cumulative);
                if (w.count() > 0) {
                    windows.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
                            .add(w);
                }
            }
        });
    }

    /** Per series, the windows overlapping {@code [fromMillis, toMillis)} summed into one; series without any left out. */
    public Map<String, HopWindow> during(long fromMillis, long toMillis) {
        Map<String, HopWindow> out = new TreeMap<>();
        windows.forEach((series, list) -> {
            HopWindow sum = null;
            synchronized (list) {
                for (HopWindow w : list) {
                    if (w.endMillis() > fromMillis && w.startMillis() < toMillis) {
                        sum = sum == null ? w : sum.plus(w);
                    }
                }
            }
            if (sum != null) {
                out.put(series, sum);
            }
        });
        return out;
    }

    /** Every window as CSV: page and series, window start and end (epoch ms), samples, p50, p99, max bound (ms). */
    public void writeCsv(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("series,start_ms,end_ms,count,p50_ms,p99_ms,max_bound_ms");
        new TreeMap<>(windows).forEach((series, list) -> {
            for (HopWindow w : List.copyOf(list)) {
                lines.add(String.format(
                        Locale.ROOT,
                        "\"%s\",%d,%d,%.0f,%.3f,%.3f,%.3f",
                        series.replace("\"", "\"\""),
                        w.startMillis(),
                        w.endMillis(),
                        w.count(),
                        w.quantileMillis(0.5),
                        w.quantileMillis(0.99),
                        w.maxBoundMillis()));
            }
        });
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** Pages that could not be fetched, summed over the seconds. */
    public int failures() {
        return failures.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
