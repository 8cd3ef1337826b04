package io.lakehouse.engines.store;

import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.storage.StorageSpec;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The iceberg-catalog instances of every namespace, as catalog-service announced them. */
@ApplicationScoped
public class CatalogStore {

    // Named, not *: a statement stays prepared on its connection, and a column added by a newer version's
    // migration would change the result type of a prepared SELECT * ("cached plan must not change result type").
    private static final String COLUMNS = "namespace, name, catalog_name, bucket, endpoint, region, path_style,"
            + " storage_secret, phase, deleting";
    /**
     * A pass's read of the catalog its instance names ({@code InstanceDependencies#passColumns}): the row as a JSON
     * object, or null while catalog-service has announced none of that name.
     */
    public static final String PASS_COLUMN = ", (SELECT row_to_json(c) FROM catalogs c"
            + " WHERE c.namespace = instances.namespace AND c.name = instances.spec ->> 'catalog') AS catalog_ref";
    /** The engines using catalog ($1, $2). */
    private static final String USERS = " SELECT namespace || '/' || name FROM instances WHERE namespace = $1"
            + " AND spec ->> 'catalog' = $2";

    private final Pool pool;
    /** The consumers' connections: {@link #upsert} and {@link #remove} run in the catalog events' consumer. */
    private final Pool events;

    CatalogStore(Pool pool, @ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.pool = pool;
        this.events = events;
    }

    public Uni<Optional<CatalogRef>> find(String namespace, String name) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM catalogs WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(map(rows.iterator().next())));
    }

    /**
     * Stores a catalog's latest state and returns the keys of the engines using it, in one round trip
     * (the whole topic history is read at first start). An upsert of the full state is idempotent, and
     * events of one catalog arrive in order (same key, same partition), so no inbox is needed.
     */
    public Uni<List<String>> upsert(CatalogRef c) {
        StorageSpec s = c.storage();
        return keys(events.preparedQuery("WITH saved AS (INSERT INTO catalogs (namespace, name, catalog_name, bucket,"
                        + " endpoint, region, path_style, storage_secret, phase, deleting)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                        + " ON CONFLICT (namespace, name) DO UPDATE SET catalog_name = $3, bucket = $4, endpoint = $5,"
                        + " region = $6, path_style = $7, storage_secret = $8, phase = $9, deleting = $10)"
                        + USERS)
                .execute(Tuple.tuple().addString(c.namespace()).addString(c.name()).addString(c.catalogName())
                        .addString(s.bucket()).addString(s.endpoint()).addString(s.region())
                        .addBoolean(!Boolean.FALSE.equals(s.pathStyleAccess())).addString(s.credentialsSecret())
                        .addString(c.phase()).addBoolean(c.deleting())));
    }

    /** Forgets a deleted catalog; returns the keys of the engines that still name it. */
    public Uni<List<String>> remove(String namespace, String name) {
        return keys(events.preparedQuery("WITH gone AS (DELETE FROM catalogs WHERE namespace = $1 AND name = $2)"
                        + USERS)
                .execute(Tuple.of(namespace, name)));
    }

    private static Uni<List<String>> keys(Uni<RowSet<Row>> query) {
        return query.map(rows -> {
            List<String> keys = new ArrayList<>();
            rows.forEach(r -> keys.add(r.getString(0)));
            return keys;
        });
    }

    /** The catalog of {@link #PASS_COLUMN}; null when there is none. */
    public static CatalogRef passCatalog(Row row) {
        JsonObject c = (JsonObject) row.getValue("catalog_ref");
        return c == null ? null : map(c);
    }

    private static CatalogRef map(Row r) {
        return map(r.toJson());
    }

    private static CatalogRef map(JsonObject c) {
        return new CatalogRef(c.getString("namespace"), c.getString("name"), c.getString("catalog_name"),
                new StorageSpec(c.getString("bucket"), c.getString("endpoint"), c.getString("region"),
                        c.getBoolean("path_style"), c.getString("storage_secret"), null, null),
                c.getString("phase"), c.getBoolean("deleting"));
    }
}
