package io.lakehouse.catalog.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** Instances of other services that use a catalog, projected from their lifecycle events. */
@ApplicationScoped
public class DependentsStore {

    private final Pool pool;

    DependentsStore(Pool pool) {
        this.pool = pool;
    }

    /** {@code kind/name} of every instance using the catalog. */
    public Uni<List<String>> of(String namespace, String catalog) {
        return pool.preparedQuery("SELECT kind || '/' || name FROM catalog_dependents WHERE namespace = $1"
                        + " AND catalog = $2 ORDER BY kind, name")
                .execute(Tuple.of(namespace, catalog))
                .map(rows -> {
                    List<String> names = new ArrayList<>();
                    rows.forEach(r -> names.add(r.getString(0)));
                    return names;
                });
    }

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
