package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.support.TestEngines;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Kafka, then PostgreSQL, stopped under the running service: requests answer 503 and commit nothing. Runs last, since it stops the shared engines. */
@Order(4)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OutageIntegrationTest extends ServiceTestBase {

    /** Epoch of ivy's connection, made by the first test and still current in the second. */
    private static long ivyEpoch;

    @Test
    @Order(1)
    void kafkaDownAnswers503AndCommitsNothing() throws Exception {
        ivyEpoch = connect("ivy", "node-a", false, 60).epoch();
        TestEngines.stopKafka();
        Response answer = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest("ivy", ivyEpoch, "node-a", List.of(sub("ivy/1", 1))));
        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.body().get("error").asString()).contains("Kafka");
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'ivy'")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    @Order(2)
    void postgresDownAnswers503() throws Exception {
        TestEngines.stopPostgres();
        Response answer =
                post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("ivy", ivyEpoch, "node-a", 60));
        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.body().get("error").asString()).contains("PostgreSQL");
    }
}
