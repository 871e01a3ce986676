package io.tributary.session.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;

/**
 * Several SQL statements, separated by semicolons, sent to PostgreSQL in one round trip: the driver sends each
 * statement's Parse/Bind/Execute and one Sync, and PostgreSQL runs them one after the other. Each statement takes its
 * own snapshot (READ COMMITTED), so a later one sees what an earlier one inserted and whatever other transactions
 * committed while an earlier one waited for a lock — the same as separate calls, minus the waits in between.
 *
 * <p>Used on the CONNECT path: in a reconnect storm the machine's cores are busy, and each round trip costs a few
 * milliseconds of waiting for the database backend and then for this thread to be scheduled again, far more than
 * the statements' own work (wall-clock profile of a batch of CONNECTs, docs/benchmarks-history.md).
 */
public final class StatementPipeline {

    /** Reads the rows of one statement of the pipeline. */
    @FunctionalInterface
    public interface RowsReader {
        void read(ResultSet rows) throws SQLException;
    }

    private StatementPipeline() {}

    /**
     * Statements of one store that another caller can send with other stores' in one round trip ({@link #run(JdbcTemplate,
     * Read...)}): their SQL with {@code ?} parameters, the parameter values, a reader per row set, and the result once
     * read.
     */
    public static final class Read<T> {

        private final String sql;
        private final Object[] parameters;
        private final RowsReader[] readers;
        private final Supplier<T> result;

        public Read(String sql, Object[] parameters, RowsReader[] readers, Supplier<T> result) {
            this.sql = sql;
            this.parameters = parameters.clone();
            this.readers = readers.clone();
            this.result = result;
        }

        /** What the statements read; only after they ran. */
        public T result() {
            return result.get();
        }

        /** The same statements, their result turned into another. */
        public <U> Read<U> map(Function<T, U> f) {
            return new Read<>(sql, parameters, readers, () -> f.apply(result.get()));
        }
    }

    /** Runs the reads' statements one after the other in one round trip; then each read has its result. */
    public static void run(JdbcTemplate jdbc, Read<?>... reads) {
        StringBuilder sql = new StringBuilder();
        List<Object> parameters = new ArrayList<>();
        List<RowsReader> readers = new ArrayList<>();
        for (Read<?> read : reads) {
            if (sql.length() > 0) {
                sql.append(";\n");
            }
            sql.append(read.sql);
            parameters.addAll(List.of(read.parameters));
            readers.addAll(List.of(read.readers));
        }
        run(
                jdbc,
                sql.toString(),
                ps -> {
                    for (int i = 0; i < parameters.size(); i++) {
                        ps.setObject(i + 1, parameters.get(i));
                    }
                },
                readers.toArray(RowsReader[]::new));
    }

    /**
     * Runs the statements of {@code sql} (one parameter numbering across all of them) in one round trip.
     *
     * @param readers one per statement that returns rows, in order; statements that only report a count are skipped
     * @throws IllegalStateException when the statements returned a different number of row sets than readers
     */
    public static void run(JdbcTemplate jdbc, String sql, PreparedStatementSetter parameters, RowsReader... readers) {
        jdbc.execute(sql, (PreparedStatement statement) -> {
            parameters.setValues(statement);
            boolean rows = statement.execute();
            int read = 0;
            while (rows || statement.getUpdateCount() != -1) {
                if (rows) {
                    if (read == readers.length) {
                        throw new IllegalStateException("more row sets than the " + readers.length + " expected");
                    }
                    try (ResultSet resultSet = statement.getResultSet()) {
                        readers[read++].read(resultSet);
                    }
                }
                rows = statement.getMoreResults();
            }
            if (read != readers.length) {
                throw new IllegalStateException(read + " row sets where " + readers.length + " were expected");
            }
            return null;
        });
    }
}
