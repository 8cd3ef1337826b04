package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.kube.AppliedVersion;
import io.lakehouse.common.kube.Applier;
import io.lakehouse.common.kube.ApplyMode;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import io.lakehouse.common.kube.ForeignObjectException;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.OwnerReferences;
import io.lakehouse.common.kube.Ownership;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.kube.SideBySide;
import io.lakehouse.common.security.Subject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Brings one instance's Kubernetes objects in line with its stored spec, level-triggered: every pass
 * reads the intent from the database and the live state from the informer cache, so a pass
 * interrupted anywhere (crash, restart) is simply run again. What differs between kinds comes from
 * their {@link InstanceKind}; a service creates one reconciler for its kinds.
 */
public class InstanceReconciler<C extends InstanceContext> {

    /**
     * The kinds of object the framework creates for the usual kinds; the informer cache watches these.
     * A service whose kinds make others (the catalog's Jobs) passes its own list.
     */
    public static final List<ResourceKind> KINDS = List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET,
            ResourceKind.DEPLOYMENT, ResourceKind.STATEFUL_SET, ResourceKind.SERVICE, ResourceKind.INGRESS,
            ResourceKind.NETWORK_POLICY, ResourceKind.CNPG_CLUSTER, ResourceKind.PVC);
    private static final Duration TEARDOWN_RECHECK = Duration.ofSeconds(2);
    private static final Duration DB_TIMEOUT = Duration.ofSeconds(10);

    private final InstanceKinds<C> kinds;
    private final List<ResourceKind> watched;
    /** What is deleted even without an instance row: not databases and volumes (their data cannot be made again). */
    private final List<ResourceKind> stateless;
    private final InstanceStore store;
    private final InstanceDependencies dependencies;
    private final Applier applier;
    private final InformerCache cache;
    private final C ctx;
    private final SecretSealer sealer;
    private final String eventSource;
    private final PassInputs inputs;
    private final LastApplied lastApplied = new LastApplied();

    public InstanceReconciler(InstanceKinds<C> kinds, InstanceStore store, InstanceDependencies dependencies,
            Applier applier, InformerCache cache, C ctx, SecretSealer sealer, String eventSource) {
        this(kinds, KINDS, store, dependencies, applier, cache, ctx, sealer, eventSource);
    }

    /** @param watched the kinds of object the service's kinds create (and its informer cache watches) */
    public InstanceReconciler(InstanceKinds<C> kinds, List<ResourceKind> watched, InstanceStore store,
            InstanceDependencies dependencies, Applier applier, InformerCache cache, C ctx, SecretSealer sealer,
            String eventSource) {
        this.kinds = kinds;
        this.watched = watched;
        this.stateless = watched.stream().filter(k -> k != ResourceKind.CNPG_CLUSTER && k != ResourceKind.PVC).toList();
        this.store = store;
        this.dependencies = dependencies;
        this.applier = applier;
        this.cache = cache;
        this.ctx = ctx;
        this.sealer = sealer;
        this.eventSource = eventSource;
        this.inputs = new PassInputs(watched, cache);
    }

    /** One pass over {@code namespace/name}; returns when to look again, or null. */
    public Duration reconcile(String key) {
        int slash = key.indexOf('/');
        String namespace = key.substring(0, slash);
        String name = key.substring(slash + 1);
        InstanceStore.ForPass read = store.findForPass(namespace, name, dependencies).await().atMost(DB_TIMEOUT);
        if (read == null) {
            cache.forgetDependents(namespace, name);
            inputs.forget(namespace, name);
            lastApplied.forget(key);
            deleteObjects(namespace, name, null);
            return null;
        }
        Instance inst = read.instance();
        if (inst.deleting()) {
            return tearDown(inst);
        }
        try {
            return converge(inst, read.dependencies());
        } catch (ForeignObjectException e) {
            save(inst, new InstanceStatus.Result(Phase.Failed,
                    ObjectConflicts.conditions(inst.conditions(), e, inst.generation(), Instant.now())));
            return ObjectConflicts.RECHECK;
        }
    }

    private Duration converge(Instance inst, PassDependencies dependsOn) {
        InstanceKind<C> kind = kinds.of(inst.kind());
        Gates gates = gates(inst, kind, dependsOn);
        Granted access = gates.mayDeploy() && kind.readsGrants() ? dependsOn.granted() : Granted.NONE;
        List<Subject> granted = access.subjects();
        Map<String, List<String>> members = access.groupMembers();
        PassInputs.Fingerprints read = inputs.of(inst, gates, granted, members, () -> kind.contextInputs(inst, ctx));
        if (inputs.unchanged(inst, read)) {
            return null; // nothing it reads changed since its last complete pass: it would write nothing
        }
        String desired = read == null ? null : read.desired();
        OwnerReference owner = ownerIfStillAsApplied(inst, desired);
        if (owner == null) {
            owner = applyObjects(inst, kind, gates, granted, members, desired);
        }
        Progress progress = kind.progress(inst, ctx, owner, gates,
                (resource, name) -> cache.seenOrCreated(resource, inst.namespace(), name).orElse(null), Instant.now());
        progress.remove().forEach(applier::delete);
        progress.enforce().forEach(o -> applier.apply(o, ApplyMode.ENFORCE));
        progress.createOnce().forEach(o -> applier.apply(o, ApplyMode.CREATE_ONLY));
        save(inst, withExtra(progress.status(), kind.extraConditions(inst, ctx), inst));
        inputs.completed(inst, read);
        return null;
    }

    /**
     * The root's owner reference when the last apply built from these same inputs left every object as it still is
     * ({@link LastApplied}): nothing to build or apply. Null otherwise.
     */
    private OwnerReference ownerIfStillAsApplied(Instance inst, String desired) {
        List<AppliedVersion> last = lastApplied.versions(key(inst), desired);
        if (last == null || !cache.stillAsApplied(inst.namespace(), last)) {
            return null;
        }
        return cache.get(ResourceKind.CONFIG_MAP, inst.namespace(), InstanceObjects.root(inst.name()))
                .map(OwnerReferences::controlledBy).orElse(null);
    }

    /** Builds and applies the instance's objects from {@code desired}'s inputs; returns the root's owner reference. */
    private OwnerReference applyObjects(Instance inst, InstanceKind<C> kind, Gates gates, List<Subject> granted,
            Map<String, List<String>> members, String desired) {
        List<AppliedVersion> applied = Collections.synchronizedList(new ArrayList<>());
        ConfigMap desiredRoot = InstanceObjects.rootObject(inst, kind.app(), ctx);
        OwnerReference owner = OwnerReferences.controlledBy(apply(desiredRoot, ApplyMode.ENFORCE, applied));
        // The root first (its uid owns the rest), then side by side the Secrets and the other objects pods read from,
        // then the objects that use them (a pod template's digest reads those Secrets when it is built). No object
        // is built from another's live state, so the Secrets need no round trip of their own before the rest.
        List<Runnable> data = new ArrayList<>();
        for (GeneratedSecret generated : kind.generatedSecrets(inst, ctx, owner)) {
            // Built only when missing: values (and certificates) are generated once.
            Optional<HasMetadata> existing = cache.get(ResourceKind.SECRET, inst.namespace(), generated.name());
            if (existing.isEmpty()) {
                data.add(() -> apply(generated.build().get(), ApplyMode.CREATE_ONLY, applied));
            } else {
                Ownership.require(desiredRoot, existing.get());
                applied.add(AppliedVersion.of(existing.get(), existing.get()));
            }
        }
        if (inst.sealedCredentials() != null) {
            data.add(() -> apply(InstanceObjects.s3Secret(inst, kind.app(), ctx, owner,
                    sealer.open(inst.sealedCredentials().accessKeyId()),
                    sealer.open(inst.sealedCredentials().secretAccessKey())), ApplyMode.ENFORCE, applied));
        }
        List<Runnable> users = new ArrayList<>();
        Set<String> othersSecrets = ConcurrentHashMap.newKeySet();
        boolean deploy = gates.mayDeploy();
        if (deploy) {
            List<HasMetadata> all = new ArrayList<>(kind.accessObjects(inst, granted, members, ctx, owner));
            all.addAll(kind.objects(inst, ctx, owner));
            for (HasMetadata o : all) {
                (readByPods(o) ? data : users).add(() -> apply(
                        PodSecrets.withDigest(o, secret -> secret(inst.namespace(), secret, othersSecrets)),
                        ApplyMode.ENFORCE, applied));
            }
        }
        SideBySide.run(data);
        SideBySide.run(users);
        if (deploy) {
            cache.dependsOn(inst.namespace(), inst.name(), othersSecrets);
        }
        lastApplied.record(key(inst), desired, applied);
        return owner;
    }

    /** Applies {@code desired} and adds the version it left to {@code applied}; returns that version. */
    private HasMetadata apply(HasMetadata desired, ApplyMode mode, List<AppliedVersion> applied) {
        HasMetadata live = applier.apply(desired, mode).live();
        applied.add(AppliedVersion.of(desired, live));
        return live;
    }

    private static String key(Instance inst) {
        return inst.namespace() + "/" + inst.name();
    }

    /**
     * Secrets and ConfigMaps, and the database Cluster: CloudNativePG makes its {@code <name>-db-app} Secret as soon as
     * it exists, and a workload applied after it finds that Secret for its digest more often (where CloudNativePG is
     * quick, as the local simulator), instead of rolling once more when it appears.
     */
    private static boolean readByPods(HasMetadata object) {
        return object instanceof Secret || object instanceof ConfigMap
                || ResourceKind.keyOf(object).equals(ResourceKind.CNPG_CLUSTER.key());
    }

    /** The kind's own conditions after the framework's, each keeping its transition time while it holds. */
    private static InstanceStatus.Result withExtra(InstanceStatus.Result status, List<Condition> extra, Instance inst) {
        if (extra.isEmpty()) {
            return status;
        }
        List<Condition> all = new ArrayList<>(status.conditions());
        all.addAll(Conditions.merge(inst.conditions(), extra, Instant.now()));
        return new InstanceStatus.Result(status.phase(), all);
    }

    /**
     * Ours from the cache; others' (bucket, database, catalog principal, OIDC client), added to {@code others}, from the
     * cache of others' Secrets ({@link InformerCache#withOthersSecrets}); from the API server only when neither cache
     * holds it. Why a miss is still asked: CloudNativePG makes {@code <name>-db-app} moments after the pass created the
     * Cluster, often before its watch event reached the cache; a digest without it would roll the workload again right
     * after its creation (measured: 0.7 updates and 0.6 events more per mlflow instance). Once the Secrets exist, no
     * pass asks.
     */
    private Optional<Secret> secret(String namespace, String name, Set<String> others) {
        Optional<HasMetadata> ours = cache.get(ResourceKind.SECRET, namespace, name);
        if (ours.isPresent()) {
            return ours.map(Secret.class::cast);
        }
        others.add(name);
        return cache.secret(namespace, name).or(() -> applier.live(ResourceKind.SECRET, namespace, name)
                .map(Secret.class::cast));
    }

    private static Gates gates(Instance inst, InstanceKind<?> kind, PassDependencies dependsOn) {
        String catalogName = inst.spec().catalog();
        CatalogRef catalog = catalogName == null ? null : dependsOn.catalog();
        boolean oidcReady = kind.usesOidcClient() && dependsOn.oidcClientReady();
        return new Gates(catalogName, catalog, kind.usesOidcClient(), oidcReady);
    }

    private void save(Instance inst, InstanceStatus.Result status) {
        if (status.phase() == inst.phase() && status.conditions().equals(inst.conditions())) {
            return;
        }
        Optional<EventType> type = status.phase() == inst.phase() ? Optional.empty() : status.phase().event();
        LakehouseEvent event = type.map(t -> InstanceEvents.of(eventSource, kinds.of(inst.kind()), ctx, t, inst,
                status.phase(), status.conditions(), Instant.now())).orElse(null);
        store.updateStatus(inst, status.phase(), status.conditions(), event).await().atMost(DB_TIMEOUT);
    }

    /**
     * Deletes the instance's objects, root last; once none is left, forgets the instance and
     * publishes {@code instance.deleted} (access-service then removes its OIDC client). Buckets are
     * never touched.
     */
    private Duration tearDown(Instance inst) {
        lastApplied.forget(key(inst));
        if (deleteObjects(inst.namespace(), inst.name(), inst)) {
            return TEARDOWN_RECHECK;
        }
        store.delete(inst, InstanceEvents.of(eventSource, kinds.of(inst.kind()), ctx, EventType.INSTANCE_DELETED, inst,
                Phase.Deleting, inst.conditions(), Instant.now())).await().atMost(DB_TIMEOUT);
        return null;
    }

    /**
     * Sends deletes for whatever is left; true while something still exists. Databases and volumes go
     * only with an instance being deleted ({@code inst} given): objects without a row (a restored
     * service database, a row removed by hand) may still be wanted, and their data cannot be made again.
     * What the last pass created counts even before its watch event reached the cache ({@link InformerCache#ownedBy}):
     * the instance is forgotten only when none of it is left.
     */
    private boolean deleteObjects(String namespace, String name, Instance inst) {
        List<HasMetadata> left = new ArrayList<>();
        HasMetadata root = null;
        for (InstanceKind<C> instanceKind : kinds.all()) {
            for (ResourceKind kind : inst != null ? watched : stateless) {
                for (HasMetadata o : cache.ownedBy(kind, namespace, instanceKind.kind(), name)) {
                    if (kind == ResourceKind.CONFIG_MAP && o.getMetadata().getName().equals(InstanceObjects.root(name))) {
                        root = o;
                    } else {
                        left.add(o);
                    }
                }
            }
        }
        if (inst != null) {
            for (ObjectRef ref : kinds.of(inst.kind()).leftovers(inst)) {
                applier.live(ref.kind(), namespace, ref.name()).ifPresent(left::add);
            }
        }
        // The cache can hold objects that are already gone (a watch reopened after missing a
        // DELETE): only what the API server still had counts as left.
        left.removeIf(o -> !applier.delete(o));
        boolean rootLeft = root != null && applier.delete(root);
        return !left.isEmpty() || rootLeft;
    }
}
