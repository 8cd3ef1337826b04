package io.lakehouse.common.db;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.jboss.logging.Logger;

/**
 * Migrates the service's schema at start, before any other start-up observer (the messaging channels subscribe
 * at {@code LIBRARY_BEFORE}, the services' own observers later) and before the HTTP servers open. Flyway runs
 * only when the schema's history is not exactly the migrations this build ships, applied with the same checksums
 * (a first start, an upgrade, a failed or edited migration): then it migrates and validates as before and fails
 * the start on what it refuses. A restart of the same release on its own schema costs one query instead of
 * Flyway's database detection, two resolutions of the scripts and the validation (catalog-service: 60-90 ms of the
 * main thread's CPU instead of 270-310 ms; docs/benchmarks.md "Boot: Flyway only when there is something to
 * migrate"). {@code quarkus.flyway.migrate-at-start} is off (common's defaults) so that Quarkus does not run it first.
 */
@ApplicationScoped
public class SchemaMigrations {

    private static final Logger LOG = Logger.getLogger(SchemaMigrations.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final AgroalDataSource dataSource;
    private final Instance<Flyway> flyway;
    private final List<String> locations;
    private final String schema;
    private final String table;
    private volatile boolean flywayRan;

    SchemaMigrations(AgroalDataSource dataSource, Instance<Flyway> flyway,
            @ConfigProperty(name = "quarkus.flyway.locations") List<String> locations,
            @ConfigProperty(name = "quarkus.flyway.default-schema") String schema,
            @ConfigProperty(name = "quarkus.flyway.table", defaultValue = "flyway_schema_history") String table) {
        this.dataSource = dataSource;
        this.flyway = flyway;
        this.locations = locations;
        this.schema = schema;
        this.table = table;
    }

    void migrate(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) throws SQLException {
        flywayRan = migrateIfNeeded();
    }

    /** Runs Flyway unless the schema holds exactly this build's migrations, applied and unchanged; true if it ran. */
    public boolean migrateIfNeeded() throws SQLException {
        long cpu = THREADS.getCurrentThreadCpuTime();
        Optional<Map<String, Integer>> scripts = MigrationScripts.read(Thread.currentThread().getContextClassLoader(),
                locations);
        if (scripts.isPresent() && current(scripts.get())) {
            LOG.infof("schema %s holds its %d migrations, applied and unchanged: Flyway not run (%d ms of CPU)", schema,
                    scripts.get().size(), (THREADS.getCurrentThreadCpuTime() - cpu) / 1_000_000);
            return false;
        }
        flyway.get().migrate();
        LOG.infof("schema %s: Flyway ran (%d ms of CPU)", schema,
                (THREADS.getCurrentThreadCpuTime() - cpu) / 1_000_000);
        return true;
    }

    private boolean current(Map<String, Integer> scripts) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return MigrationHistory.holdsExactly(connection, schema, table, scripts);
        }
    }

    /** Whether this start ran Flyway (the schema was not current). */
    public boolean flywayRan() {
        return flywayRan;
    }
}
