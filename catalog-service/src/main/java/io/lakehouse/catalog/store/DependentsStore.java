package io.lakehouse.catalog.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/** Instances of other services that use a catalog, projected from their lifecycle events. */
@ApplicationScoped
public class DependentsStore {

    /**
     * {@code kind/name} of every instance using the catalog of an {@code instances} row, as the {@code text[]}
     * the instance store reads with the row ({@code InstanceStore.read}: a single GET is one statement).
     */
    public static final String USED_BY = "ARRAY(SELECT d.kind || '/' || d.name FROM catalog_dependents d"
            + " WHERE d.namespace = instances.namespace AND d.catalog = instances.name ORDER BY d.kind, d.name)";

    public Uni<Void> upsert(SqlConnection tx, String namespace, String catalog, String kind, String name) {
        return tx.preparedQuery("INSERT INTO catalog_dependents (namespace, catalog, kind, name) VALUES ($1, $2, $3, $4)"
                        + " ON CONFLICT (namespace, kind, name) DO UPDATE SET catalog = EXCLUDED.catalog")
                .execute(Tuple.of(namespace, catalog, kind, name))
                .replaceWithVoid();
    }

    public Uni<Void> remove(SqlConnection tx, String namespace, String kind, String name) {
        return tx.preparedQuery("DELETE FROM catalog_dependents WHERE namespace = $1 AND kind = $2 AND name = $3")
                .execute(Tuple.of(namespace, kind, name))
                .replaceWithVoid();
    }
}
