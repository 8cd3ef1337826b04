package io.lakehouse.notebooks.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** Questions about the hubs of the {@code instances} table the framework's store does not ask. */
@ApplicationScoped
public class HubStore {

    private final Pool pool;

    HubStore(Pool pool) {
        this.pool = pool;
    }

    /** The namespace's hub (being deleted or not), if it has one. */
    public Uni<Optional<String>> existing(String namespace) {
        return pool.preparedQuery("SELECT name FROM instances WHERE namespace = $1 AND kind = 'jupyterhub'")
                .execute(Tuple.of(namespace))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
    }
}
