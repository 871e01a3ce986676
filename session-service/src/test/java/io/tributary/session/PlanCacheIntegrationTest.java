package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The service's database connections plan every statement for its parameters and the table as it is at that moment:
 * a statement prepared while its table was empty (the sessions table at a start or after a quiet spell) must use the
 * index once a storm has filled the table, not keep the sequential scan planned for the empty table. PostgreSQL
 * would otherwise keep one generic plan for a statement prepared on the server (the driver does that from its 5th
 * run), and every CONNECT of a storm would scan all sessions. Ordered before {@link OutageIntegrationTest}.
 */
@Order(3)
class PlanCacheIntegrationTest extends ServiceTestBase {

    @Autowired
    private DataSource dataSource;

    @Test
    void a_statement_prepared_on_an_empty_table_uses_the_index_once_the_table_is_full() throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                s.execute("CREATE TEMP TABLE plan_probe (client_id text PRIMARY KEY, keep_alive int) ON COMMIT DROP");
                s.execute("ANALYZE plan_probe");
                s.execute("PREPARE probe(text) AS UPDATE plan_probe SET keep_alive = 1 WHERE client_id = $1");
                // More than the five custom plans after which PostgreSQL settles on a generic one.
                for (int i = 0; i < 8; i++) {
                    s.execute("EXECUTE probe('absent-" + i + "')");
                }
                s.execute("INSERT INTO plan_probe SELECT 'c-' || g, 0 FROM generate_series(1, 5000) g");
                List<String> plan = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("EXPLAIN EXECUTE probe('c-42')")) {
                    while (rs.next()) {
                        plan.add(rs.getString(1));
                    }
                }
                assertThat(String.join("\n", plan))
                        .as("plan of a statement prepared while its table was empty")
                        .contains("Index Scan")
                        .doesNotContain("Seq Scan");
            } finally {
                c.rollback();
                // PREPARE outlives the transaction: the pooled connection goes back without it.
                s.execute("DEALLOCATE ALL");
                c.setAutoCommit(true);
            }
        }
    }
}
