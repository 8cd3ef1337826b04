package io.lakehouse.notebooks.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.instances.api.CreateInstanceRequest;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubRules;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubSpec;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import io.lakehouse.notebooks.store.HubStore;
import io.lakehouse.notebooks.store.KnownInstanceStore;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The framework's use cases plus the two rules of hubs: one per namespace (409 naming the existing
 * hub; the database's unique index decides a race), and references to instances the service knows in
 * the same namespace, not being deleted (422, nothing stored). A patch of the references is checked
 * the same way.
 */
public class NotebookService extends InstanceService<NotebookContext> {

    static final String ONE_PER_NAMESPACE = "one_hub_per_namespace";
    public static final String USER_VOLUMES = "UserVolumes";

    private final HubStore hubs;
    private final KnownInstanceStore known;

    public NotebookService(InstanceStore store, InstanceDependencies dependencies, NamespaceBuckets buckets,
            SecretSealer sealer, NotebookContext ctx, String eventSource, HubStore hubs, KnownInstanceStore known) {
        super(store, dependencies, buckets, sealer, ctx, eventSource);
        this.hubs = hubs;
        this.known = known;
    }

    @Override
    public Uni<Instance> create(String namespace, InstanceKind<NotebookContext> kind, CreateInstanceRequest request,
            String caller) {
        LakehouseRefs refs = request == null || request.spec() == null || !request.spec().isObject() ? null
                : ((JupyterHubSpec) SpecPatch.read(kind, request.spec())).lakehouse();
        return hubs.existing(namespace)
                .invoke(existing -> existing.ifPresent(name -> {
                    throw alreadyOne(namespace, name);
                }))
                .chain(() -> checkReferences(namespace, refs))
                .chain(() -> super.create(namespace, kind, request, caller))
                .onFailure(NotebookService::lostTheRace)
                .recoverWithUni(e -> hubs.existing(namespace).map(name -> {
                    throw alreadyOne(namespace, name.orElse("?"));
                }));
    }

    @Override
    public Uni<Instance> patch(String namespace, InstanceKind<NotebookContext> kind, String name,
            JsonNode patch) {
        return get(namespace, kind, name).chain(current -> {
            InstanceSpec next = patch != null && patch.isObject()
                    ? SpecPatch.apply(kind, current.spec(), patch) : current.spec();
            LakehouseRefs before = ((JupyterHubSpec) current.spec()).lakehouse();
            LakehouseRefs after = ((JupyterHubSpec) next).lakehouse();
            return (after == null || after.equals(before) ? Uni.createFrom().voidItem()
                    : checkReferences(namespace, after)).chain(() -> super.patch(namespace, kind, name, patch));
        });
    }

    /**
     * Starts deletion; the answer says what happens to the users' volumes (condition {@code UserVolumes}):
     * they are kept, being the users' data, and how to remove them.
     */
    @Override
    public Uni<Instance> delete(String namespace, InstanceKind<NotebookContext> kind, String name) {
        return super.delete(namespace, kind, name).map(inst -> {
            List<Condition> conditions = new ArrayList<>(inst.conditions());
            conditions.add(new Condition(USER_VOLUMES, Condition.TRUE, "Kept", "the users' volumes (claim-" + name
                    + "-<user>) are kept: their data outlives the hub; remove them with kubectl delete pvc -l "
                    + "app.kubernetes.io/instance=" + name + ",lakehouse.io/kind=jupyterhub", Instant.now(),
                    inst.generation()));
            return new Instance(inst.namespace(), inst.name(), inst.kind(), inst.uid(), inst.spec(),
                    inst.sealedCredentials(), inst.generation(), inst.phase(), conditions, inst.deleting(),
                    inst.createdBy(), inst.createdAt());
        });
    }

    private Uni<Void> checkReferences(String namespace, LakehouseRefs refs) {
        if (refs == null || refs.set().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return known.inNamespace(namespace).invoke(all -> {
            Violations v = new Violations();
            JupyterHubRules.checkReferenceNames(v, refs);
            JupyterHubRules.checkReferences(v, refs, ref -> Optional.ofNullable(all.get(ref))
                    .map(k -> new JupyterHubRules.Known(k.phase(), k.deleting())));
            v.throwIfAny();
        }).replaceWithVoid();
    }

    private static boolean lostTheRace(Throwable e) {
        return e instanceof PgException pg && "23505".equals(pg.getSqlState())
                && String.valueOf(pg.getMessage()).contains(ONE_PER_NAMESPACE);
    }

    private static ApiException alreadyOne(String namespace, String existing) {
        return ApiException.conflict("namespace '" + namespace + "' already has a JupyterHub: '" + existing
                + "' (one JupyterHub per namespace: use it, or delete it first)");
    }

}
