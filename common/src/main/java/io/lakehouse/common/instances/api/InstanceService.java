package io.lakehouse.common.instances.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceContext;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.common.instances.InstanceEvents;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.lakehouse.common.storage.SealedCredentials;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Violations;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The use cases of every kind: validation, then one transaction with the event. */
public class InstanceService<C extends InstanceContext> {

    private final InstanceStore store;
    private final InstanceDependencies dependencies;
    private final NamespaceBuckets buckets;
    private final SecretSealer sealer;
    private final C ctx;
    private final String eventSource;

    public InstanceService(InstanceStore store, InstanceDependencies dependencies, NamespaceBuckets buckets,
            SecretSealer sealer, C ctx, String eventSource) {
        this.store = store;
        this.dependencies = dependencies;
        this.buckets = buckets;
        this.sealer = sealer;
        this.ctx = ctx;
        this.eventSource = eventSource;
    }

    /**
     * Validates the request (every violation at once), checks the referenced catalog and bucket
     * Secret, seals typed S3 keys, then stores the instance with {@code instance.requested}.
     */
    public Uni<Instance> create(String namespace, InstanceKind<C> kind, CreateInstanceRequest request, String caller) {
        if (request == null) {
            throw ApiException.badRequest("a JSON body with name and spec is required");
        }
        if (request.spec() != null && !request.spec().isObject()) {
            throw ApiException.badRequest("spec must be a JSON object");
        }
        InstanceSpec parsed = SpecPatch.read(kind, request.spec() == null
                ? JsonNodeFactory.instance.objectNode() : request.spec());
        // A namespace bucket picked by name fills the rest of the storage block before the checks.
        return buckets.resolve(namespace, "spec.storage", parsed.storage())
                .map(storage -> storage == parsed.storage() ? parsed : parsed.withStorage(storage))
                .chain(requested -> create(namespace, kind, request.name(), requested, caller));
    }

    private Uni<Instance> create(String namespace, InstanceKind<C> kind, String name, InstanceSpec requested,
            String caller) {
        return catalog(namespace, requested.catalog()).chain(catalog -> {
            InstanceSpec spec = kind.withDefaults(requested, catalog.filter(c -> !c.deleting()));
            Violations v = new Violations();
            kind.checkCreate(v, name, namespace, spec);
            checkCatalog(v, namespace, requested.catalog(), catalog);
            v.throwIfAny();
            return buckets.requireCredentials(namespace, "spec.storage", spec.storage())
                    .chain(() -> insert(namespace, kind, name, spec, caller));
        });
    }

    private Uni<Instance> insert(String namespace, InstanceKind<C> kind, String name, InstanceSpec spec, String caller) {
        StorageSpec storage = spec.storage();
        boolean typedKeys = storage != null && storage.hasInlineKeys();
        SealedCredentials sealed = typedKeys
                ? new SealedCredentials(sealer.seal(storage.accessKeyId()), sealer.seal(storage.secretAccessKey()))
                : null;
        InstanceSpec stored = typedKeys ? spec.withStorage(storage.withoutKeys(InstanceObjects.s3Secret(name))) : spec;
        Instance inst = new Instance(namespace, name, kind.kind(), UUID.randomUUID(), stored, sealed, 1,
                Phase.Pending, List.of(), false, caller, Instant.now());
        return store.insert(inst, InstanceEvents.of(eventSource, kind, ctx, EventType.INSTANCE_REQUESTED, inst,
                Phase.Pending, List.of(), inst.createdAt())).replaceWith(inst);
    }

    private Uni<Optional<CatalogRef>> catalog(String namespace, String name) {
        return name == null || !Names.isDns1123Label(name) ? Uni.createFrom().item(Optional.empty())
                : dependencies.catalog(namespace, name);
    }

    private static void checkCatalog(Violations v, String namespace, String name, Optional<CatalogRef> catalog) {
        if (name == null || v.has("spec.catalog")) {
            return;
        }
        if (catalog.isEmpty()) {
            v.add("spec.catalog", "no iceberg-catalog named '" + name + "' in namespace '" + namespace
                    + "': deploy the catalog first (an engine only uses a catalog of its own namespace)");
        } else if (catalog.get().deleting()) {
            v.add("spec.catalog", "the iceberg-catalog '" + name + "' is being deleted");
        }
    }

    /** The instance of this kind, or 404 (an instance of another kind with that name is not it). */
    public Uni<Instance> get(String namespace, InstanceKind<C> kind, String name) {
        return read(namespace, kind, name).map(InstanceStore.Read::instance);
    }

    /** {@link #get} with the instances of other services using it (null where the service does not track them). */
    public Uni<InstanceStore.Read> read(String namespace, InstanceKind<C> kind, String name) {
        return store.read(namespace, name).map(read -> {
            if (read == null || !read.instance().kind().equals(kind.kind())) {
                throw notFound(namespace, kind.kind(), name);
            }
            return read;
        });
    }

    public Uni<Instance> patch(String namespace, InstanceKind<C> kind, String name, JsonNode patch) {
        return get(namespace, kind, name).chain(current -> {
            if (current.deleting()) {
                throw ApiException.conflict("the instance is being deleted");
            }
            InstanceSpec next = kind.patch(current.spec(), patch);
            if (next.equals(current.spec())) {
                return Uni.createFrom().item(current);
            }
            Instance updated = new Instance(current.namespace(), current.name(), current.kind(),
                    current.uid(), next, current.sealedCredentials(), current.generation() + 1, current.phase(),
                    current.conditions(), false, current.createdBy(), current.createdAt());
            return store.updateSpec(current, next, InstanceEvents.of(eventSource, kind, ctx, EventType.INSTANCE_UPDATED,
                            updated, current.phase(), current.conditions(), Instant.now()))
                    .map(done -> {
                        if (!done) {
                            throw ApiException.conflict("the instance changed meanwhile; read it and try again");
                        }
                        return updated;
                    });
        });
    }

    /**
     * Starts deletion: 202 with phase Deleting; the instance disappears once its objects are gone.
     * Refused (409) while instances of other services use it (a catalog's engines would lose their
     * metastore).
     */
    public Uni<Instance> delete(String namespace, InstanceKind<C> kind, String name) {
        return read(namespace, kind, name).chain(read -> {
            Instance current = read.instance();
            if (current.deleting()) {
                return Uni.createFrom().item(current);
            }
            List<String> users = read.usedBy();
            if (users != null && !users.isEmpty()) {
                throw ApiException.conflict("the " + kind.kind() + " is used by " + String.join(", ", users)
                        + ": delete them first");
            }
            // The answer is the instance as marked, not read again: its reconcile pass may forget it first (404).
            Instance deleting = new Instance(current.namespace(), current.name(), current.kind(), current.uid(),
                    current.spec(), current.sealedCredentials(), current.generation(), Phase.Deleting,
                    current.conditions(), true, current.createdBy(), current.createdAt());
            return store.markDeleting(current, InstanceEvents.of(eventSource, kind, ctx,
                            EventType.INSTANCE_DELETING, current, Phase.Deleting, current.conditions(), Instant.now()))
                    .replaceWith(deleting);
        });
    }

    public static ApiException notFound(String namespace, String kind, String name) {
        return ApiException.notFound("no " + kind + " named '" + name + "' in namespace '" + namespace + "'");
    }
}
