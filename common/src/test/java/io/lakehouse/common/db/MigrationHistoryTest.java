package io.lakehouse.common.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.testing.TestServers;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The start-up check that decides whether Flyway runs (SchemaMigrations), against Flyway's own history on the real
 * PostgreSQL of the test command: scripts of test locations migrated by Flyway into the catalog role's schema, with
 * a history table and tables of their own.
 */
class MigrationHistoryTest {

    private static final String SCHEMA = "catalog";
    private static final String TABLE = "migration_check_history";
    private static final String FIRST = "db/migration-check";
    private static final String NEXT = "db/migration-check-next";
    private static final ClassLoader LOADER = MigrationHistoryTest.class.getClassLoader();

    private final DataSource dataSource = TestServers.schema(SCHEMA);

    @BeforeEach
    void emptySchema() throws SQLException {
        sql("DROP TABLE IF EXISTS " + TABLE + ", migration_check_a, migration_check_b, migration_check_c");
    }

    @Test
    void aSchemaFlywayMigratedHoldsExactlyTheScriptsWithFlywaysChecksums() throws SQLException {
        migrate(FIRST);
        Map<String, Integer> scripts = MigrationScripts.read(LOADER, List.of(FIRST)).orElseThrow();
        assertThat(scripts.keySet()).containsExactly("1.0", "1.1.5");
        assertThat(current(scripts)).isTrue();
    }

    @Test
    void aScriptNotAppliedYetIsForFlyway() throws SQLException {
        migrate(FIRST);
        Map<String, Integer> both = MigrationScripts.read(LOADER, List.of(FIRST, "classpath:" + NEXT)).orElseThrow();
        assertThat(current(both)).isFalse();
        migrate(FIRST, NEXT);
        assertThat(current(both)).isTrue();
        // A release older than the schema (a migration applied that it does not ship) is Flyway's to judge too.
        assertThat(current(MigrationScripts.read(LOADER, List.of(FIRST)).orElseThrow())).isFalse();
    }

    @Test
    void anEditedOrFailedMigrationIsForFlyway() throws SQLException {
        migrate(FIRST);
        Map<String, Integer> scripts = MigrationScripts.read(LOADER, List.of(FIRST)).orElseThrow();
        sql("UPDATE " + TABLE + " SET checksum = checksum + 1 WHERE version = '1.0'");
        assertThat(current(scripts)).isFalse();
        sql("UPDATE " + TABLE + " SET checksum = checksum - 1, success = false WHERE version = '1.0'");
        assertThat(current(scripts)).isFalse();
        sql("UPDATE " + TABLE + " SET success = true WHERE version = '1.0'");
        assertThat(current(scripts)).isTrue();
    }

    @Test
    void aSchemaNeverMigratedIsForFlyway() throws SQLException {
        assertThat(current(MigrationScripts.read(LOADER, List.of(FIRST)).orElseThrow())).isFalse();
    }

    @Test
    void scriptsOnlyFlywayUnderstandsLeaveTheDecisionToIt() {
        assertThat(MigrationScripts.read(LOADER, List.of("db/migration-check-repeatable"))).isEmpty();
        assertThat(MigrationScripts.read(LOADER, List.of("filesystem:/tmp"))).isEmpty();
        assertThat(MigrationScripts.read(LOADER, List.of("db/migration-check-java"))).isEmpty();
        assertThat(MigrationScripts.read(LOADER, List.of(FIRST, FIRST))).isEmpty();
    }

    @Test
    void theServicesCommonMigrationsAreRead() {
        assertThat(MigrationScripts.read(LOADER, List.of("db/common")).orElseThrow())
                .containsKeys("1.0", "1.5", "1.9", "1.9.5");
    }

    private boolean current(Map<String, Integer> scripts) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return MigrationHistory.holdsExactly(c, SCHEMA, TABLE, scripts);
        }
    }

    /**
     * The schema holds other tests' tables, so Flyway baselines it (at version 0, below every script) when it creates
     * this history table; without that row the history is what a migration of an empty schema writes.
     */
    private void migrate(String... locations) throws SQLException {
        Flyway.configure().dataSource(dataSource).schemas(SCHEMA).table(TABLE).locations(locations)
                .baselineOnMigrate(true).baselineVersion("0").load().migrate();
        sql("DELETE FROM " + TABLE + " WHERE type = 'BASELINE'");
    }

    private void sql(String statement) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }
}
