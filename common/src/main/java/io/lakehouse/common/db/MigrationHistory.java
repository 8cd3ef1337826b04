package io.lakehouse.common.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/** A schema's Flyway history table, compared with the migrations a service ships. */
final class MigrationHistory {

    /** PostgreSQL's undefined_table: a schema never migrated. */
    private static final String UNDEFINED_TABLE = "42P01";

    private MigrationHistory() {
    }

    /**
     * True when the history holds exactly {@code scripts}: each applied successfully with the same checksum, nothing
     * else applied (a newer release's migration, a baseline, a failed or deleted entry) and nothing missing. Flyway's
     * own row for a schema it created does not count.
     */
    static boolean holdsExactly(Connection connection, String schema, String table, Map<String, Integer> scripts)
            throws SQLException {
        Map<String, Integer> applied = new HashMap<>();
        try (Statement st = connection.createStatement();
                ResultSet rows = st.executeQuery("SELECT version, checksum, type, success FROM "
                        + quote(schema) + "." + quote(table))) {
            while (rows.next()) {
                String type = rows.getString("type");
                if ("SCHEMA".equals(type)) {
                    continue;
                }
                Integer checksum = (Integer) rows.getObject("checksum");
                if (!"SQL".equals(type) || !rows.getBoolean("success") || checksum == null
                        || applied.put(rows.getString("version"), checksum) != null) {
                    return false;
                }
            }
        } catch (SQLException e) {
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
        return applied.equals(scripts);
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
