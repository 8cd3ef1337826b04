package io.lakehouse.common.events;

import io.vertx.pgclient.PgException;
import java.sql.SQLException;

/**
 * Whether a handler's failure is PostgreSQL refusing the event's own data (SQLSTATE class 22, "data
 * exception": a NUL in a text value, a number out of range, an invalid date). Such a record fails the same way
 * on every try, so retrying only holds its partition up; anything else (a restart, a lock, a table away) may pass
 * on a later try.
 */
final class RefusedData {

    private static final String DATA_EXCEPTION_CLASS = "22";

    private RefusedData() {}

    static boolean isCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String state = t instanceof PgException pg ? pg.getSqlState()
                    : t instanceof SQLException sql ? sql.getSQLState() : null;
            if (state != null && state.startsWith(DATA_EXCEPTION_CLASS)) {
                return true;
            }
        }
        return false;
    }
}
