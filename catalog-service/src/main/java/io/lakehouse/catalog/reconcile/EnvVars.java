package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import java.util.List;

/** Environment entries; secret values always by reference, never inline. */
final class EnvVars {

    private EnvVars() {}

    static EnvVar value(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }

    static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name)
                .withNewValueFrom().withNewSecretKeyRef().withName(secret).withKey(key).endSecretKeyRef().endValueFrom()
                .build();
    }

    /** Polaris' JDBC persistence, from the Secret CloudNativePG writes for the application database. */
    static List<EnvVar> persistence(CatalogInstance inst) {
        String app = CatalogNames.databaseAppSecret(inst.name());
        return List.of(
                value("POLARIS_PERSISTENCE_TYPE", "relational-jdbc"),
                fromSecret("QUARKUS_DATASOURCE_JDBC_URL", app, "jdbc-uri"),
                fromSecret("QUARKUS_DATASOURCE_USERNAME", app, "username"),
                fromSecret("QUARKUS_DATASOURCE_PASSWORD", app, "password"));
    }
}
