package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.events.InstanceEvents;
import io.lakehouse.catalog.store.InstanceStore;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.crypto.RandomValues;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.instances.ObjectConflicts;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.Applier;
import io.lakehouse.common.kube.ApplyMode;
import io.lakehouse.common.kube.Conditions;
import io.lakehouse.common.kube.ForeignObjectException;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.OwnerReferences;
import io.lakehouse.common.kube.ResourceKind;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Brings one catalog instance's Kubernetes objects in line with its stored spec, level-triggered:
 * every pass reads the intent from the database and the live state from the informer cache, so a
 * pass interrupted anywhere (crash, restart) is simply run again.
 */
@ApplicationScoped
public class CatalogReconciler {

    /** Every kind the service creates; the informer cache watches these. */
    public static final List<ResourceKind> KINDS = List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET,
            ResourceKind.DEPLOYMENT, ResourceKind.SERVICE, ResourceKind.INGRESS, ResourceKind.NETWORK_POLICY,
            ResourceKind.JOB, ResourceKind.CNPG_CLUSTER);
    private static final List<ResourceKind> STATELESS_KINDS = KINDS.stream()
            .filter(k -> k != ResourceKind.CNPG_CLUSTER).toList();
    private static final Duration TEARDOWN_RECHECK = Duration.ofSeconds(2);
    private static final Duration DB_TIMEOUT = Duration.ofSeconds(10);

    private final InstanceStore store;
    private final Applier applier;
    private final InformerCache cache;
    private final CatalogContext ctx;
    private final SecretSealer sealer;
    private final String eventSource;

    CatalogReconciler(InstanceStore store, Applier applier, InformerCache cache, CatalogContext ctx,
            SecretSealer sealer, ServiceSettings settings) {
        this.store = store;
        this.applier = applier;
        this.cache = cache;
        this.ctx = ctx;
        this.sealer = sealer;
        this.eventSource = settings.eventSource();
    }

    /** One pass over {@code namespace/name}; returns when to look again, or null. */
    public Duration reconcile(String key) {
        int slash = key.indexOf('/');
        String namespace = key.substring(0, slash);
        String name = key.substring(slash + 1);
        CatalogInstance inst = store.find(namespace, name).await().atMost(DB_TIMEOUT);
        if (inst == null) {
            deleteObjects(namespace, name, false);
            return null;
        }
        if (inst.deleting()) {
            return tearDown(inst);
        }
        try {
            return converge(inst);
        } catch (ForeignObjectException e) {
            save(inst, new CatalogStatusCalculator.Result(Phase.Failed,
                    ObjectConflicts.conditions(inst.conditions(), e, inst.generation(), Instant.now())));
            return ObjectConflicts.RECHECK;
        }
    }

    private Duration converge(CatalogInstance inst) {
        HasMetadata root = applier.apply(RootObject.of(inst, ctx), ApplyMode.ENFORCE).live();
        OwnerReference owner = OwnerReferences.controlledBy(root);
        applier.apply(CatalogSecrets.rootPrincipal(inst, ctx, owner, RandomValues.hex(8), RandomValues.token(32)),
                ApplyMode.CREATE_ONLY);
        applier.apply(CatalogSecrets.tokenBroker(inst, ctx, owner, RandomValues.token(32)), ApplyMode.CREATE_ONLY);
        if (inst.sealedCredentials() != null) {
            applier.apply(CatalogSecrets.s3(inst, ctx, owner, sealer.open(inst.sealedCredentials().accessKeyId()),
                    sealer.open(inst.sealedCredentials().secretAccessKey())), ApplyMode.ENFORCE);
        }
        applier.apply(CatalogDatabase.of(inst, ctx), ApplyMode.ENFORCE);
        applier.apply(PolarisServer.deployment(inst, ctx, owner), ApplyMode.ENFORCE);
        applier.apply(PolarisServer.service(inst, ctx, owner), ApplyMode.ENFORCE);
        applier.apply(PolarisServer.ingress(inst, ctx, owner), ApplyMode.ENFORCE);
        applier.apply(PolarisServer.networkPolicy(inst, ctx, owner), ApplyMode.ENFORCE);

        CatalogStatusCalculator.Result status = status(inst);
        // The tasks are gated on what they need, instead of failing and backing off inside Jobs.
        List<io.lakehouse.common.kube.Condition> c = status.conditions();
        if (databaseReplaced(c)) {
            // The tasks' Jobs belong to the old database: removed, they run again on the new one.
            deleteCached(ResourceKind.JOB, inst, CatalogNames.realmInitJob(inst.name()));
            deleteCached(ResourceKind.JOB, inst, CatalogNames.catalogInit(inst.name()));
        } else if (Conditions.isTrue(c, CatalogStatusCalculator.DATABASE_READY)
                && !Conditions.isTrue(c, CatalogStatusCalculator.REALM_INITIALIZED)) {
            String databaseUid = cached(ResourceKind.CNPG_CLUSTER, inst, CatalogNames.database(inst.name()))
                    .getMetadata().getUid();
            applier.apply(CatalogTasks.realmInit(inst, ctx, owner, databaseUid), ApplyMode.CREATE_ONLY);
        }
        if (Conditions.isTrue(c, CatalogStatusCalculator.REALM_INITIALIZED)
                && Conditions.isTrue(c, CatalogStatusCalculator.SERVER_READY)
                && !Conditions.isTrue(c, CatalogStatusCalculator.CATALOG_CREATED)) {
            applier.apply(CatalogTasks.catalogInitConfig(inst, ctx, owner), ApplyMode.ENFORCE);
            applier.apply(CatalogTasks.catalogInit(inst, ctx, owner), ApplyMode.CREATE_ONLY);
        }
        save(inst, status);
        return null;
    }

    private CatalogStatusCalculator.Result status(CatalogInstance inst) {
        Observed observed = new Observed(
                (GenericKubernetesResource) cached(ResourceKind.CNPG_CLUSTER, inst, CatalogNames.database(inst.name())),
                (Deployment) cached(ResourceKind.DEPLOYMENT, inst, CatalogNames.server(inst.name())),
                (Job) cached(ResourceKind.JOB, inst, CatalogNames.realmInitJob(inst.name())),
                (Job) cached(ResourceKind.JOB, inst, CatalogNames.catalogInit(inst.name())));
        return CatalogStatusCalculator.compute(observed, inst.conditions(), inst.phase(), inst.generation(),
                Instant.now());
    }

    private static boolean databaseReplaced(List<io.lakehouse.common.kube.Condition> conditions) {
        return Conditions.find(conditions, CatalogStatusCalculator.REALM_INITIALIZED)
                .filter(r -> CatalogStatusCalculator.DATABASE_REPLACED.equals(r.reason())).isPresent();
    }

    private void deleteCached(ResourceKind kind, CatalogInstance inst, String name) {
        HasMetadata live = cached(kind, inst, name);
        if (live != null) {
            applier.delete(live);
        }
    }

    private HasMetadata cached(ResourceKind kind, CatalogInstance inst, String name) {
        return cache.get(kind, inst.namespace(), name).orElse(null);
    }

    private void save(CatalogInstance inst, CatalogStatusCalculator.Result status) {
        if (status.phase() == inst.phase() && status.conditions().equals(inst.conditions())) {
            return;
        }
        Optional<EventType> type = status.phase() == inst.phase() ? Optional.empty()
                : status.phase().event();
        LakehouseEvent event = type.map(t -> InstanceEvents.of(eventSource, t, inst, status.phase(),
                status.conditions(), Instant.now())).orElse(null);
        store.updateStatus(inst, status.phase(), status.conditions(), event).await().atMost(DB_TIMEOUT);
    }

    /**
     * Deletes the instance's objects, root last; once none is left, forgets the instance and
     * publishes {@code instance.deleted}. The bucket's files are never touched.
     */
    private Duration tearDown(CatalogInstance inst) {
        if (deleteObjects(inst.namespace(), inst.name(), true)) {
            return TEARDOWN_RECHECK;
        }
        store.delete(inst, InstanceEvents.of(eventSource, EventType.INSTANCE_DELETED, inst,
                Phase.Deleting, inst.conditions(), Instant.now()))
                .await().atMost(DB_TIMEOUT);
        return null;
    }

    /**
     * Sends deletes for whatever is left; true while something still exists. The database goes only
     * with an instance being deleted: objects without a row (a restored service database, a row
     * removed by hand) may still be wanted, and their data cannot be made again.
     */
    private boolean deleteObjects(String namespace, String name, boolean withData) {
        List<HasMetadata> left = new ArrayList<>();
        HasMetadata root = null;
        for (ResourceKind kind : withData ? KINDS : STATELESS_KINDS) {
            for (HasMetadata o : cache.ownedBy(kind, namespace, CatalogInstance.KIND, name)) {
                if (o.getMetadata().getName().equals(CatalogNames.root(name)) && kind == ResourceKind.CONFIG_MAP) {
                    root = o;
                } else {
                    left.add(o);
                }
            }
        }
        // Written by CloudNativePG, owned by its Cluster: garbage collection removes it on a real
        // cluster; deleting it here as well keeps the promise where no collector runs.
        if (withData) {
            applier.live(ResourceKind.SECRET, namespace, CatalogNames.databaseAppSecret(name)).ifPresent(left::add);
        }
        // The cache can hold objects that are already gone (a watch reopened after missing a
        // DELETE): only what the API server still had counts as left.
        left.removeIf(o -> !applier.delete(o));
        boolean rootLeft = root != null && applier.delete(root);
        return !left.isEmpty() || rootLeft;
    }
}
