package io.lakehouse.catalog.reconcile;

import static io.lakehouse.common.kube.EnvVars.fromSecret;
import static io.lakehouse.common.kube.EnvVars.value;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.Instance;
import java.util.List;

/** Polaris' database settings, shared by the server and its tasks. */
final class PolarisPersistence {

    private PolarisPersistence() {}

    /** Polaris' JDBC persistence, from the Secret CloudNativePG writes for the application database. */
    static List<EnvVar> env(Instance inst) {
        String app = CatalogNames.databaseAppSecret(inst.name());
        return List.of(
                value("POLARIS_PERSISTENCE_TYPE", "relational-jdbc"),
                fromSecret("QUARKUS_DATASOURCE_JDBC_URL", app, "jdbc-uri"),
                fromSecret("QUARKUS_DATASOURCE_USERNAME", app, "username"),
                fromSecret("QUARKUS_DATASOURCE_PASSWORD", app, "password"));
    }
}
