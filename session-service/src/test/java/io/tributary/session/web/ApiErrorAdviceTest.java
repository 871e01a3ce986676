package io.tributary.session.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;

/** issue 34: database error text (SQL, constraint names, host names) was returned to API callers. */
class ApiErrorAdviceTest {

    private final ApiErrorAdvice advice = new ApiErrorAdvice();

    @Test
    void aDatabaseErrorAnswersWithoutTheDriversText() {
        var e = new DataIntegrityViolationException(
                "PreparedStatementCallback; SQL [insert into credentials ...]",
                new SQLException("ERROR: conflicting key value violates exclusion constraint \"credentials_cn_excl\""));
        var answer = advice.dataAccess(e);
        assertThat(answer.getStatusCode().value()).isEqualTo(500);
        assertThat(answer.getBody().error()).doesNotContain("credentials").doesNotContain("SQL");
    }

    @Test
    void anUnreachableDatabaseAnswers503WithoutItsAddress() {
        var e = new DataAccessResourceFailureException(
                "Unable to acquire JDBC Connection",
                new SQLException("Connection to db.internal.example:5432 refused"));
        var answer = advice.database(e);
        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getBody().error())
                .doesNotContain("db.internal.example")
                .startsWith("PostgreSQL unavailable");
    }
}
