package io.lakehouse.engines.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.engines.reconcile.ReconcileLoop;
import io.lakehouse.engines.store.CatalogStore;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Keeps the projection of iceberg-catalog instances from {@code lakehouse.instances}: what a new
 * engine may refer to and the bucket it inherits. Engines using a catalog are reconciled again when
 * the catalog's state changes (their {@code CatalogReady} condition follows it), by the leader, which
 * this replica wakes through the database.
 */
@ApplicationScoped
public class CatalogEventsConsumer {

    static final String CATALOG_KIND = "iceberg-catalog";
    private final IncomingEvents incoming;
    private final CatalogStore catalogs;
    private final ReconcileLoop loop;
    private final Pool pool;

    CatalogEventsConsumer(IncomingEvents incoming, CatalogStore catalogs, ReconcileLoop loop,
            @ReactiveDataSource(IncomingEvents.POOL) Pool pool) {
        this.incoming = incoming;
        this.catalogs = catalogs;
        this.loop = loop;
        this.pool = pool;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handleInstances(message, CATALOG_KIND::equals, CatalogEventsConsumer::check, this::apply);
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String name = d.get("name").asText();
        return (event.type() == EventType.INSTANCE_DELETED ? catalogs.remove(namespace, name)
                        : catalogs.upsert(ref(event)))
                .chain(users -> loop.wake(pool, users));
    }

    private static CatalogRef ref(LakehouseEvent event) {
        JsonNode d = event.data();
        JsonNode s = d.path("spec");
        StorageSpec storage = new StorageSpec(s.path("bucket").asText(), s.path("endpoint").asText(),
                s.path("region").asText(), s.path("pathStyleAccess").asBoolean(true),
                s.path("storageSecret").asText(), null, null);
        boolean deleting = event.type() == EventType.INSTANCE_DELETING || "Deleting".equals(d.path("phase").asText());
        return new CatalogRef(d.get("namespace").asText(), d.get("name").asText(), s.path("catalogName").asText(),
                storage, d.path("phase").asText(), deleting);
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
        if (CATALOG_KIND.equals(d.get("kind").asText()) && event.type() != EventType.INSTANCE_DELETED) {
            JsonNode s = d.path("spec");
            for (String field : new String[] {"catalogName", "bucket", "endpoint", "region", "storageSecret"}) {
                if (!s.path(field).isTextual()) {
                    throw new MalformedEventException("iceberg-catalog event without spec." + field);
                }
            }
        }
    }
}
