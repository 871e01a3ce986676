package io.tributary.perf.hops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hop histograms read from Prometheus pages: parsing, per-window deltas, and a real scrape over HTTP. */
class HopScraperTest {

    /** A page as Micrometer writes it: the hop histogram after {@code fast} samples of 1 ms and {@code slow} of 200. */
    private static String page(int fast, int slow) {
        int total = fast + slow;
        return "# HELP tributary_route_latency_seconds route\n"
                + "# TYPE tributary_route_latency_seconds histogram\n"
                + "tributary_route_latency_seconds_bucket{service=\"routing\",topic=\"a,b\",le=\"0.001\"} " + fast
                + "\n"
                + "tributary_route_latency_seconds_bucket{service=\"routing\",topic=\"a,b\",le=\"0.05\"} " + fast
                + "\n"
                + "tributary_route_latency_seconds_bucket{service=\"routing\",topic=\"a,b\",le=\"0.25\"} " + total
                + "\n"
                + "tributary_route_latency_seconds_bucket{service=\"routing\",topic=\"a,b\",le=\"+Inf\"} " + total
                + "\n"
                + "tributary_route_latency_seconds_count{service=\"routing\",topic=\"a,b\"} " + total + "\n"
                + "jvm_threads_live_threads 40.0\n"
                + "http_server_requests_seconds_bucket{uri=\"/x\",le=\"0.001\"} 3.0\n";
    }

    @Test
    void the_buckets_of_tributary_histograms_are_read_with_their_labels_and_nothing_else() {
        Map<String, TreeMap<Double, Double>> h = PrometheusHistograms.parse(page(10, 2), HopScraper.PREFIX);
        assertThat(h).containsOnlyKeys("tributary_route_latency_seconds{service=\"routing\",topic=\"a,b\"}");
        assertThat(h.values().iterator().next())
                .containsEntry(0.001, 10.0)
                .containsEntry(0.25, 12.0)
                .containsEntry(Double.POSITIVE_INFINITY, 12.0);
    }

    @Test
    void a_window_holds_what_the_histogram_gained_in_it() {
        var before = PrometheusHistograms.parse(page(100, 0), HopScraper.PREFIX)
                .values()
                .iterator()
                .next();
        var after = PrometheusHistograms.parse(page(150, 1), HopScraper.PREFIX)
                .values()
                .iterator()
                .next();
        HopWindow w = HopWindow.between(0, 1000, before, after);
        assertThat(w.count()).isEqualTo(51);
        assertThat(w.quantileMillis(0.5)).isCloseTo(1.0, within(1e-9));
        assertThat(w.quantileMillis(0.99)).as("the slow one is the top 2 %").isCloseTo(250.0, within(1e-9));
        assertThat(w.maxBoundMillis()).isCloseTo(250.0, within(1e-9));
        HopWindow quiet = HopWindow.between(1000, 2000, after, after);
        assertThat(quiet.count()).isZero();
        assertThat(w.plus(quiet).count()).isEqualTo(51);
    }

    @Test
    void a_run_scrapes_each_second_and_places_the_slow_samples_in_their_window(@TempDir Path dir) throws Exception {
        AtomicInteger slow = new AtomicInteger();
        AtomicInteger fast = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/actuator/prometheus", exchange -> {
            byte[] body = page(fast.addAndGet(10), slow.get()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/prometheus");
        try (HopScraper scraper = new HopScraper(java.util.List.of(uri)).start()) {
            Thread.sleep(1_500);
            long slowFrom = System.currentTimeMillis();
            slow.addAndGet(3);
            Thread.sleep(2_200);
            scraper.close();
            Map<String, HopWindow> late = scraper.during(slowFrom, System.currentTimeMillis());
            assertThat(late).hasSize(1);
            assertThat(late.values().iterator().next().maxBoundMillis()).isCloseTo(250.0, within(1e-9));
            Map<String, HopWindow> early = scraper.during(0, slowFrom - 600);
            assertThat(early.values().iterator().next().maxBoundMillis())
                    .as("before the slow samples only fast ones")
                    .isCloseTo(1.0, within(1e-9));
            assertThat(scraper.failures()).isZero();
            Path csv = dir.resolve("hops.csv");
            scraper.writeCsv(csv);
            assertThat(Files.readAllLines(csv))
                    .hasSizeGreaterThan(2)
                    .first()
                    .asString()
                    .startsWith("series,");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void a_stalled_second_lists_the_hops_that_grew_while_its_messages_travelled_slowest_first() {
        HopScraper scraper = new HopScraper(java.util.List.of());
        URI routing = URI.create("http://127.0.0.1:8082/actuator/prometheus");
        scraper.record(routing, 10_000, PrometheusHistograms.parse(page(0, 0), HopScraper.PREFIX));
        scraper.record(routing, 11_000, PrometheusHistograms.parse(page(500, 0), HopScraper.PREFIX));
        scraper.record(routing, 12_000, PrometheusHistograms.parse(page(900, 4), HopScraper.PREFIX));
        java.util.List<io.tributary.perf.measure.SecondLatency> series = java.util.List.of(
                new io.tributary.perf.measure.SecondLatency(0, 10_000, 1000, 2, 5, 8),
                new io.tributary.perf.measure.SecondLatency(1, 11_000, 1000, 20, 180, 230));
        java.util.List<String> lines = HopStallReport.lines(series, 50, scraper);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).contains("second 1 (e2e max 230.00 ms)");
        assertThat(lines.get(2))
                .contains("127.0.0.1:8082 tributary_route_latency_seconds")
                .contains("n=404")
                .contains("max <=   250.00 ms");
        assertThat(HopStallReport.lines(series.subList(0, 1), 50, scraper))
                .as("no stall, no lines")
                .isEmpty();
    }
}
