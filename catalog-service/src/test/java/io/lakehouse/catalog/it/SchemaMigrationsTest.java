package io.lakehouse.catalog.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.db.SchemaMigrations;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * The schema is migrated at start by common's SchemaMigrations: the tests' start, on a schema cleaned at start, ran
 * Flyway; the same check on the schema it left (the service's own migrations from db/common and db/catalog, the
 * checksums Flyway recorded) finds it current, as a restart of the same release does, and does not run Flyway again.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class SchemaMigrationsTest {

    @Inject
    SchemaMigrations migrations;

    @Test
    void aStartOnACleanedSchemaRanFlywayAndAStartOnTheSchemaItLeftDoesNot() throws SQLException {
        assertThat(migrations.flywayRan()).as("Flyway at the tests' start, on a cleaned schema").isTrue();
        assertThat(migrations.migrateIfNeeded()).as("Flyway run again on the migrated schema").isFalse();
    }
}
