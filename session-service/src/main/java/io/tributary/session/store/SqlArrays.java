package io.tributary.session.store;

import java.util.Collection;

/**
 * Lists bound as one PostgreSQL array ({@code col = ANY(:ids)}) instead of expanded into {@code IN (?, ?, ...)}:
 * the statement text is then the same for every batch size, so the driver prepares it once per connection and
 * PostgreSQL stops parsing and planning it anew for each batch of CONNECTs.
 */
public final class SqlArrays {

    private SqlArrays() {}

    public static String[] text(Collection<String> values) {
        return values.toArray(String[]::new);
    }
}
