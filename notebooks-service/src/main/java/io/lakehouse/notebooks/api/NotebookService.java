package io.lakehouse.notebooks.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
import io.lakehouse.notebooks.reconcile.UserVolumes;
import io.lakehouse.notebooks.store.HubStore;
import io.lakehouse.notebooks.store.KnownInstanceStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.pgclient.PgException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The framework's use cases plus the two rules of hubs: one per namespace (409 naming the existing
 * hub; the database's unique index decides a race), and references to instances the service knows in
 * the same namespace, not being deleted (422, nothing stored). A patch of the references is checked
 * the same way.
 */
public class NotebookService extends InstanceService<NotebookContext> {

    private static final Logger LOG = Logger.getLogger(NotebookService.class);
    static final String ONE_PER_NAMESPACE = "one_hub_per_namespace";
    public static final String USER_VOLUMES = "UserVolumes";

    private final HubStore hubs;
    private final KnownInstanceStore known;
    private final UserVolumes volumes;

    public NotebookService(InstanceStore store, InstanceDependencies dependencies, NamespaceBuckets buckets,
            SecretSealer sealer, NotebookContext ctx, String eventSource, HubStore hubs, KnownInstanceStore known,
            UserVolumes volumes) {
        super(store, dependencies, buckets, sealer, ctx, eventSource);
        this.hubs = hubs;
        this.known = known;
        this.volumes = volumes;
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

    /** Starts deletion and keeps the users' volumes (their data outlives the hub). */
    @Override
    public Uni<Instance> delete(String namespace, InstanceKind<NotebookContext> kind, String name) {
        return delete(namespace, kind, name, false);
    }

    /**
     * Starts deletion; with {@code removeUserVolumes} the hub's user volumes are deleted too, once the
     * hub is marked Deleting (a refused delete removes nothing). The answer says what happened to them
     * (condition {@code UserVolumes}). Asking again while the hub is Deleting removes volumes made meanwhile.
     */
    public Uni<Instance> delete(String namespace, InstanceKind<NotebookContext> kind, String name,
            boolean removeUserVolumes) {
        return super.delete(namespace, kind, name).chain(inst -> (removeUserVolumes
                ? Uni.createFrom().item(() -> removed(namespace, name)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                : Uni.createFrom().item(kept(name)))
                .map(volumes -> withCondition(inst, volumes)));
    }

    private static Condition kept(String name) {
        return new Condition(USER_VOLUMES, Condition.TRUE, "Kept", "the users' volumes (claim-" + name
                + "-<user>) are kept: their data outlives the hub; to remove them, DELETE the hub with"
                + " ?removeUserVolumes=true (also while it is Deleting)", Instant.now(), 0);
    }

    private Condition removed(String namespace, String name) {
        try {
            List<String> gone = volumes.remove(namespace, name);
            return new Condition(USER_VOLUMES, Condition.FALSE, "Removed", gone.isEmpty()
                    ? "removeUserVolumes: the hub had no user volumes"
                    : "removeUserVolumes: " + gone.size() + " user volume(s) deleted: " + String.join(", ", gone),
                    Instant.now(), 0);
        } catch (KubernetesClientException e) {
            LOG.warnf("removing the user volumes of %s/%s failed: %s", namespace, name, e.getMessage());
            return new Condition(USER_VOLUMES, Condition.UNKNOWN, "RemoveFailed", "the hub is being deleted but its"
                    + " user volumes could not be removed (Kubernetes answered " + e.getCode() + "); DELETE it again"
                    + " with ?removeUserVolumes=true", Instant.now(), 0);
        }
    }

    private static Instance withCondition(Instance inst, Condition volumes) {
        List<Condition> conditions = new ArrayList<>(inst.conditions());
        conditions.add(new Condition(volumes.type(), volumes.status(), volumes.reason(), volumes.message(),
                volumes.lastTransitionTime(), inst.generation()));
        return new Instance(inst.namespace(), inst.name(), inst.kind(), inst.uid(), inst.spec(),
                inst.sealedCredentials(), inst.generation(), inst.phase(), conditions, inst.deleting(),
                inst.createdBy(), inst.createdAt());
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
