package io.lakehouse.catalog.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.domain.CatalogPatch;
import io.lakehouse.catalog.domain.CatalogRules;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.storage.SealedCredentials;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.catalog.events.InstanceEvents;
import io.lakehouse.catalog.store.DependentsStore;
import io.lakehouse.catalog.store.InstanceStore;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.problem.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The catalog's use cases: validation, then one transaction with the event. */
@ApplicationScoped
public class CatalogInstanceService {

    private final InstanceStore store;
    private final DependentsStore dependents;
    private final NamespaceBuckets buckets;
    private final SecretSealer sealer;
    private final String eventSource;

    CatalogInstanceService(InstanceStore store, DependentsStore dependents, NamespaceBuckets buckets,
            SecretSealer sealer, ServiceSettings settings) {
        this.store = store;
        this.dependents = dependents;
        this.buckets = buckets;
        this.sealer = sealer;
        this.eventSource = settings.eventSource();
    }

    public Uni<CatalogInstance> create(String namespace, CreateInstanceRequest request, String caller) {
        if (request == null) {
            throw ApiException.badRequest("a JSON body with name and spec is required");
        }
        CatalogSpec spec = CatalogRules.checkCreate(request.name(), namespace, request.spec());
        return buckets.requireCredentials(namespace, "spec.storage", spec.storage()).chain(() -> {
            StorageSpec storage = spec.storage();
            SealedCredentials sealed = storage.hasInlineKeys()
                    ? new SealedCredentials(sealer.seal(storage.accessKeyId()), sealer.seal(storage.secretAccessKey()))
                    : null;
            StorageSpec stored = storage.hasInlineKeys() ? storage.withoutKeys(CatalogNames.s3Secret(request.name()))
                    : storage;
            CatalogInstance inst = new CatalogInstance(namespace, request.name(), UUID.randomUUID(),
                    spec.withStorage(stored), sealed, 1, Phase.Pending, List.of(), false, caller, Instant.now());
            return store.insert(inst, InstanceEvents.of(eventSource, EventType.INSTANCE_REQUESTED, inst, Phase.Pending,
                    List.of(), inst.createdAt())).replaceWith(inst);
        });
    }

    public Uni<CatalogInstance> get(String namespace, String name) {
        return store.find(namespace, name).map(inst -> {
            if (inst == null) {
                throw notFound(namespace, name);
            }
            return inst;
        });
    }

    public Uni<CatalogInstance> patch(String namespace, String name, JsonNode patch) {
        return get(namespace, name).chain(current -> {
            if (current.deleting()) {
                throw ApiException.conflict("the instance is being deleted");
            }
            CatalogSpec next = CatalogPatch.apply(current.spec(), patch);
            if (next.equals(current.spec())) {
                return Uni.createFrom().item(current);
            }
            CatalogInstance updated = new CatalogInstance(current.namespace(), current.name(), current.uid(), next,
                    current.sealedCredentials(), current.generation() + 1, current.phase(), current.conditions(),
                    false, current.createdBy(), current.createdAt());
            return store.updateSpec(current, next, InstanceEvents.of(eventSource, EventType.INSTANCE_UPDATED, updated,
                            current.phase(), current.conditions(), Instant.now()))
                    .map(done -> {
                        if (!done) {
                            throw ApiException.conflict("the instance changed meanwhile; read it and try again");
                        }
                        return updated;
                    });
        });
    }

    /**
     * Starts deletion. Refused (409) while instances of other services still use the catalog: their
     * engines would lose their metastore. The bucket's files are never touched.
     */
    public Uni<CatalogInstance> delete(String namespace, String name) {
        return get(namespace, name).chain(current -> {
            if (current.deleting()) {
                return Uni.createFrom().item(current);
            }
            return dependents.of(namespace, name).chain(users -> {
                if (!users.isEmpty()) {
                    throw ApiException.conflict("the catalog is used by " + String.join(", ", users)
                            + ": delete them first");
                }
                return store.markDeleting(current, InstanceEvents.of(eventSource, EventType.INSTANCE_DELETING,
                                current, Phase.Deleting, current.conditions(), Instant.now()))
                        .chain(() -> get(namespace, name));
            });
        });
    }

    static ApiException notFound(String namespace, String name) {
        return ApiException.notFound("no iceberg-catalog named '" + name + "' in namespace '" + namespace + "'");
    }
}
