package io.tributary.session.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.session.ServiceTestBase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The batch endpoints a transport node calls for every CONNECT, SUBSCRIBE and UNSUBSCRIBE are served without Spring MVC
 * (InternalBatchEndpoints) and answer what an HTTP API must: 405 with {@code Allow} for another method, 415 for a body
 * that is not JSON, 400 naming the cause for a body that cannot be read or a batch that is missing or too large, each
 * as {@code {"error": ...}}, and nothing written to a session; and every call is timed by call and status.
 */
@Order(3) // before OutageIntegrationTest stops the shared engines
class InternalBatchEndpointsIntegrationTest extends ServiceTestBase {

    private HttpResponse<String> call(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .header(SessionApi.TOKEN_HEADER, INTERNAL_TOKEN)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String batchOf(String clientId) throws Exception {
        return json.writeValueAsString(
                new ConnectApi.ConnectBatch(List.of(connectRequest(clientId, "node-b", true, 0, "user", null, null))));
    }

    @Test
    void anotherMethodIs405WithAllow() throws Exception {
        for (String path : List.of(
                SessionApi.CONNECT_BATCH,
                SessionApi.SUBSCRIBE_BATCH,
                SessionApi.UNSUBSCRIBE_BATCH,
                SessionApi.DISCONNECT_BATCH)) {
            HttpResponse<String> get = call("GET", path, null, null);
            assertThat(get.statusCode()).as("GET %s: %s", path, get.body()).isEqualTo(405);
            assertThat(get.headers().firstValue("Allow")).contains("POST");
            assertThat(json.readTree(get.body()).get("error").asString()).contains("POST");
        }
    }

    @Test
    void aBodyThatIsNotJsonIs415AndOneThatCannotBeReadIs400() throws Exception {
        HttpResponse<String> text = call("POST", SessionApi.CONNECT_BATCH, "text/plain", batchOf("batch-415"));
        assertThat(text.statusCode()).as(text.body()).isEqualTo(415);
        assertThat(call("POST", SessionApi.CONNECT_BATCH, null, batchOf("batch-415"))
                        .statusCode())
                .isEqualTo(415);

        HttpResponse<String> truncated = call(
                "POST",
                SessionApi.CONNECT_BATCH,
                "application/json",
                batchOf("batch-400").substring(0, 30));
        assertThat(truncated.statusCode()).as(truncated.body()).isEqualTo(400);
        assertThat(json.readTree(truncated.body()).get("error").asString()).startsWith("malformed request: ");

        HttpResponse<String> empty = call("POST", SessionApi.SUBSCRIBE_BATCH, "application/json", "");
        assertThat(empty.statusCode()).as(empty.body()).isEqualTo(400);

        HttpResponse<String> missing =
                call("POST", SessionApi.CONNECT_BATCH, "application/json; charset=UTF-8", "{\"requests\":null}");
        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(400);
        assertThat(json.readTree(missing.body()).get("error").asString()).isEqualTo("requests are required");

        StringBuilder tooMany = new StringBuilder("{\"requests\":[");
        for (int i = 0; i <= BatchCalls.MAX_BATCH; i++) {
            tooMany.append(i == 0 ? "" : ",")
                    .append("{\"clientId\":\"c")
                    .append(i)
                    .append("\",\"epoch\":1,\"nodeId\":\"node-b\",\"sessionExpirySeconds\":0}");
        }
        HttpResponse<String> large = call(
                "POST",
                SessionApi.DISCONNECT_BATCH,
                "application/json",
                tooMany.append("]}").toString());
        assertThat(large.statusCode()).as(large.body()).isEqualTo(400);
        assertThat(json.readTree(large.body()).get("error").asString())
                .isEqualTo("at most 10000 requests per batch: 10001");

        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id IN ('batch-415', 'batch-400')")
                        .query(Long.class)
                        .single())
                .as("no refused call wrote a session")
                .isZero();
    }

    @Test
    void everyCallIsTimedByCallAndStatus() throws Exception {
        String served = "status=\"200\"";
        String refused = "status=\"415\"";
        double servedBefore = count(scrape(), served);
        double refusedBefore = count(scrape(), refused);

        HttpResponse<String> ok = call("POST", SessionApi.CONNECT_BATCH, "application/json", batchOf("batch-timed"));
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(json.readValue(ok.body(), ConnectApi.ConnectBatchResponse.class)
                        .outcomes()
                        .get(0)
                        .accepted())
                .as(ok.body())
                .isNotNull();
        call("POST", SessionApi.CONNECT_BATCH, "text/plain", batchOf("batch-timed"));

        String after = scrape();
        assertThat(count(after, served)).isEqualTo(servedBefore + 1);
        assertThat(count(after, refused)).isEqualTo(refusedBefore + 1);
    }

    /** The count of the connect-batch calls answered {@code status} (labels in Micrometer's order, with others). */
    private static double count(String scrape, String status) {
        return scrape.lines()
                .filter(line -> line.startsWith("tributary_session_internal_calls_seconds_count{")
                        && line.contains("call=\"connect-batch\"")
                        && line.contains(status))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
