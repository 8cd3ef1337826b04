package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Informers on the objects one service manages (selected by its managed-by label) in every
 * namespace: reads come from the local cache, changes are pushed to a callback. No periodic LIST:
 * once synced, an informer watches again after any failure (see {@link #retry}), and
 * {@link InformerWatchdog} lists again after the watch was down, or replaces a stopped informer. With
 * {@link #withOthersSecrets} it also holds the Secrets the service does not manage, so that no pass reads one from the
 * API server.
 */
public class InformerCache implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(InformerCache.class);
    /**
     * Objects per list request. Why: one LIST of every Secret of 10,000 instances is tens of megabytes, parsed in one
     * go on the client's event loop; on a loaded machine it outlasted the client's 10 s request timeout, was retried
     * from scratch and never finished (P8). Why not client-go's 500: a page is live until its last object is cached,
     * and two loops' pages of 500 filled most of the services' 24 MiB young generation, so every young collection
     * copied them and promoted them early, filling the old one with garbage (P8 at 10,000 catalogs: 20 full GCs in
     * its 21 s).
     */
    static final long LIST_PAGE = 100;
    /**
     * Helm's release records ({@code sh.helm.release.v1.*}: the whole chart and its values, gzipped, one Secret per
     * revision, labelled {@code owner=helm}) are no pod's Secret: the cache of others' Secrets leaves them out.
     */
    private static final String HELM_RELEASE_OWNER = "owner";
    /** How often a start looks whether the first lists still progress. */
    private static final long SYNC_POLL_MS = 250;

    private final KubernetesClient client;
    private final String managedBy;
    /** Selects what the service does not manage ({@code managed-by != it}) instead of what it does. */
    private final boolean othersOnly;
    private final List<Consumer<HasMetadata>> listeners = new CopyOnWriteArrayList<>();
    /** The cache of the Secrets of others, or null (see {@link #withOthersSecrets}). */
    private InformerCache othersSecrets;
    private final SecretDependents dependents = new SecretDependents();
    private final List<Consumer<String>> dependentListeners = new CopyOnWriteArrayList<>();
    private final Map<String, SharedIndexInformer<HasMetadata>> informers = new ConcurrentHashMap<>();
    /** The store of each informer (weak: an informer the watchdog made but did not use goes with it). */
    private final Map<SharedIndexInformer<HasMetadata>, InformerCacheStore> stores =
            Collections.synchronizedMap(new WeakHashMap<>());
    /**
     * Kinds whose list or watch failed (fabric8 reported it to {@link #retry}) since their informer last listed: the
     * only watch gaps the watchdog fills with a LIST. fabric8 also restarts every watch itself every 5-10 minutes,
     * resuming from the last resourceVersion without a failure; relisting then was a periodic LIST of every kind and a
     * pass for every instance (P7: 4,154 GETs and 11 LISTs in a minute idle at 1,726 catalogs).
     */
    private final Set<String> failedKinds = ConcurrentHashMap.newKeySet();
    /**
     * Objects this process created whose watch event has not arrived yet, by {@link #unseenKey}: a teardown that
     * trusted the cache alone missed them and forgot the instance with them left behind (an orphaned database of a
     * catalog deleted right after it converged). In flight only: dropped when the watch delivers them or they are
     * deleted.
     */
    private final Map<String, HasMetadata> unseen = new ConcurrentHashMap<>();
    private final OwnCreates ownCreates = new OwnCreates();
    private InformerWatchdog watchdog;

    public InformerCache(KubernetesClient client, String managedBy) {
        this(client, managedBy, false);
    }

    private InformerCache(KubernetesClient client, String managedBy, boolean othersOnly) {
        this.client = client;
        this.managedBy = managedBy;
        this.othersOnly = othersOnly;
    }

    /**
     * Also watches every Secret this service does not manage (label selector {@code managed-by!=<service>}, an
     * equality-based requirement the mock API server honours too), kept compact like ours (no values), but those
     * another service marked {@link Labels#PRIVATE} and Helm's release records. Why: the pod
     * templates' Secrets digest ({@code PodSecrets}) and the create's credentials check read the namespace bucket's
     * Secret, CloudNativePG's {@code <name>-db-app} and other services' Secrets; read from the API server that was 6 of
     * the 7 GETs of each catalog. A change of such a Secret queues the instances whose last pass read it
     * ({@link #dependsOn}), so a Secret made after a pass (the database's) or a rotated bucket key wakes them.
     */
    public InformerCache withOthersSecrets() {
        othersSecrets = new InformerCache(client, managedBy, true);
        othersSecrets.onChange(secret -> dependents.of(secret.getMetadata().getNamespace(), secret.getMetadata().getName())
                .forEach(key -> dependentListeners.forEach(l -> l.accept(key))));
        return this;
    }

    /** Called on every add, update and delete of a watched object. */
    public void onChange(Consumer<HasMetadata> listener) {
        listeners.add(listener);
    }

    /** Called with {@code namespace/instance} when a Secret of others that the instance reads changed. */
    public void onDependentChange(Consumer<String> listener) {
        dependentListeners.add(listener);
    }

    /**
     * Starts informers on these kinds (and on the Secrets of others, see {@link #withOthersSecrets}), waits until their
     * caches are synced, then keeps them watching. A
     * list that fails or times out (a loaded machine, an API server error) is tried again; when no page
     * arrived for the sync timeout, the start fails and the leader steps down ({@link LeaderLock}). The
     * timeout counts from the last page, not from the start: a big first list that keeps progressing is
     * never thrown away and begun again (the step-down loop P8 saw, eight starts in 7 minutes).
     */
    public synchronized void start(List<ResourceKind> kinds, long syncTimeoutSeconds) {
        List<CompletableFuture<Void>> started = begin(kinds);
        if (othersSecrets != null) {
            started.addAll(othersSecrets.begin(List.of(ResourceKind.SECRET)));
        }
        CompletableFuture<Void> synced = CompletableFuture.allOf(started.toArray(CompletableFuture[]::new));
        long timeout = TimeUnit.SECONDS.toNanos(syncTimeoutSeconds);
        long progressedAt = System.nanoTime();
        long listed = -1;
        while (!synced.isDone()) {
            long now = listedObjects();
            if (now != listed) {
                listed = now;
                progressedAt = System.nanoTime();
            } else if (System.nanoTime() - progressedAt > timeout) {
                throw new IllegalStateException("informer caches did not sync: no object listed for "
                        + syncTimeoutSeconds + " s (" + listed + " listed)");
            }
            try {
                synced.get(SYNC_POLL_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // still listing: look at the progress again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("informer caches did not sync: interrupted", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("informer caches did not sync: " + e.getCause(), e.getCause());
            }
        }
        failedKinds.clear(); // the first lists hold everything: failures before them leave no gap
        watchdog = new InformerWatchdog(this, kinds).start();
        if (othersSecrets != null) {
            othersSecrets.failedKinds.clear();
            othersSecrets.watchdog = new InformerWatchdog(othersSecrets, List.of(ResourceKind.SECRET)).start();
        }
    }

    private List<CompletableFuture<Void>> begin(List<ResourceKind> kinds) {
        List<CompletableFuture<Void>> started = new ArrayList<>();
        for (ResourceKind kind : kinds) {
            SharedIndexInformer<HasMetadata> informer = newInformer(kind);
            informers.put(kind.key(), informer);
            started.add(startedFromThreadOfItsOwn(informer, kind));
        }
        return started;
    }

    /**
     * Starts the informer from a new thread. Why: Vert.x sends the requests of a thread that is not its own from one
     * event loop per thread (the next of the client's loops), and an informer's next pages and its watch follow on the
     * loop of its first list, where fabric8 parses them: informers all started from one thread parsed ten thousand
     * catalogs' objects on one loop while the other core idled (P8).
     */
    private static CompletableFuture<Void> startedFromThreadOfItsOwn(SharedIndexInformer<HasMetadata> informer,
            ResourceKind kind) {
        return CompletableFuture.supplyAsync(() -> informer.start().toCompletableFuture(),
                start -> new Thread(start, "informer-start-" + kind.key()).start()).thenCompose(started -> started);
    }

    /** Whether this kind's list or watch failed since the last check (and forgets it). */
    boolean takeFailure(ResourceKind kind) {
        return failedKinds.remove(kind.key());
    }

    /** The objects the informers hold so far: grows with every page of their first lists. */
    private long listedObjects() {
        synchronized (stores) {
            return stores.values().stream().mapToLong(InformerCacheStore::size).sum()
                    + (othersSecrets == null ? 0 : othersSecrets.listedObjects());
        }
    }

    public Optional<HasMetadata> get(ResourceKind kind, String namespace, String name) {
        SharedIndexInformer<HasMetadata> informer = informers.get(kind.key());
        if (informer == null) {
            throw new IllegalArgumentException("no informer for " + kind.key());
        }
        return Optional.ofNullable(informer.getStore().getByKey(namespace + "/" + name));
    }

    /**
     * {@link #get}, or the object this process created whose watch event has not arrived yet: what a pass sees of its
     * own creates, so that their echoes carry nothing it did not see ({@link #isEchoOfOwnCreate}).
     */
    public Optional<HasMetadata> seenOrCreated(ResourceKind kind, String namespace, String name) {
        return get(kind, namespace, name).or(() -> Optional.ofNullable(unseen.get(kind.key() + " " + namespace + "/" + name)));
    }

    /**
     * Whether a watch event's object is the version this process created (its echo: nothing new for the pass that
     * created it); true once per create.
     */
    public boolean isEchoOfOwnCreate(HasMetadata object) {
        return ownCreates.isEcho(unseenKey(object), object.getMetadata().getResourceVersion());
    }

    public Optional<HasMetadata> get(HasMetadata desired) {
        return cached(ResourceKind.keyOf(desired), desired.getMetadata().getNamespace(), desired.getMetadata().getName());
    }

    /**
     * Whether this cache holds every Secret, ours and others' (both informers synced): a miss of {@link #secret} then
     * means the Secret does not exist. False on a replica that does not lead (no informers) and without
     * {@link #withOthersSecrets}.
     */
    private boolean holdsAllSecrets() {
        return othersSecrets != null && othersSecrets.hasSynced(ResourceKind.SECRET.key())
                && hasSynced(ResourceKind.SECRET.key());
    }

    /** A Secret of either informer (ours first), compact: labels, annotations, type, the digest and keys of its data. */
    public Optional<Secret> secret(String namespace, String name) {
        Optional<HasMetadata> ours = cached(ResourceKind.SECRET.key(), namespace, name);
        return ours.or(() -> othersSecrets == null ? Optional.empty()
                : othersSecrets.cached(ResourceKind.SECRET.key(), namespace, name)).map(Secret.class::cast);
    }

    /**
     * Records the Secrets of others ({@code names}, in its namespace) that the latest pass of {@code namespace/instance}
     * read: a change of one of them calls {@link #onDependentChange}. An empty list forgets the instance.
     */
    public void dependsOn(String namespace, String instance, Collection<String> names) {
        dependents.record(namespace, instance, names);
    }

    /** The instance is gone: a change of a Secret it read queues nothing any more. */
    public void forgetDependents(String namespace, String instance) {
        dependents.forget(namespace, instance);
    }

    /**
     * The versions of the Secrets of others that the latest pass of {@code namespace/instance} read ({@link #dependsOn}),
     * as {@code name@resourceVersion} ({@code name@-} when missing); null when this cache does not hold every Secret and
     * so cannot tell whether one changed.
     */
    public String othersSecretsVersions(String namespace, String instance) {
        if (!holdsAllSecrets()) {
            return null;
        }
        StringBuilder versions = new StringBuilder();
        for (String key : dependents.readBy(namespace, instance)) {
            String name = key.substring(key.indexOf('/') + 1);
            versions.append(name).append('@').append(secret(namespace, name)
                    .map(s -> s.getMetadata().getResourceVersion()).orElse("-")).append(' ');
        }
        return versions.toString();
    }

    private boolean hasSynced(String kindKey) {
        SharedIndexInformer<HasMetadata> informer = informers.get(kindKey);
        return informer != null && informer.hasSynced();
    }

    /** The cached object, or empty (also when this kind has no informer). */
    private Optional<HasMetadata> cached(String kindKey, String namespace, String name) {
        SharedIndexInformer<HasMetadata> informer = informers.get(kindKey);
        return informer == null ? Optional.empty() : Optional.ofNullable(informer.getStore().getByKey(namespace + "/" + name));
    }

    /**
     * Whether each of these objects of the namespace is in the cache as its apply left it: the same version, or a later
     * one seen to carry the same desired state (a controller wrote only its status, {@link InformerCacheStore}). An
     * object the watch has not delivered yet counts as changed.
     */
    public boolean stillAsApplied(String namespace, List<AppliedVersion> versions) {
        for (AppliedVersion v : versions) {
            HasMetadata live = cached(v.kindKey(), namespace, v.name()).orElse(null);
            if (live == null) {
                return false;
            }
            boolean sameVersion = v.resourceVersion() != null
                    && v.resourceVersion().equals(live.getMetadata().getResourceVersion());
            if (!sameVersion && !CompactObject.verifies(live, v.checksum())) {
                return false;
            }
        }
        return true;
    }

    /** Whether the cache of this object's kind is synced: a miss then means the object does not exist. */
    public boolean synced(HasMetadata object) {
        return hasSynced(ResourceKind.keyOf(object));
    }

    /**
     * Every object of this kind that belongs to the given instance: the cached ones (an index lookup, not a scan),
     * and those this process created that the watch has not delivered yet ({@link #created}).
     */
    public List<HasMetadata> ownedBy(ResourceKind kind, String namespace, String instanceKind, String instance) {
        SharedIndexInformer<HasMetadata> informer = informers.get(kind.key());
        InformerCacheStore store = informer == null ? null : stores.get(informer);
        if (store == null) {
            throw new IllegalArgumentException("no informer for " + kind.key());
        }
        List<HasMetadata> owned = new ArrayList<>(store.ownedBy(namespace, instanceKind, instance));
        unseen.values().stream()
                .filter(o -> kind.key().equals(ResourceKind.keyOf(o)) && namespace.equals(o.getMetadata().getNamespace())
                        && InformerCacheStore.isOf(o, instanceKind, instance) && store.get(store.getKey(o)) == null)
                .forEach(owned::add);
        return owned;
    }

    /**
     * The {@link Applier} created this object: it counts as owned ({@link #ownedBy}) until its watch event arrives.
     * If the event came first (the store holds it already), or the kind is not watched, nothing is kept.
     */
    void created(HasMetadata live) {
        if (!informers.containsKey(ResourceKind.keyOf(live))) {
            return; // not watched: no event would ever clear it
        }
        String key = unseenKey(live);
        ownCreates.created(key, live.getMetadata().getResourceVersion());
        unseen.put(key, live);
        if (get(live).isPresent()) {
            unseen.remove(key);
            // The watch was faster than this answer: its store kept the version whole, not knowing it was ours.
            InformerCacheStore store = storeOf(live);
            if (store != null) {
                store.verifiedAsCreated(live);
            }
        }
    }

    /** The {@link Applier} deleted this object (or found it gone): nothing to wait for any more. */
    void deleted(HasMetadata object) {
        unseen.remove(unseenKey(object));
        ownCreates.forget(unseenKey(object));
    }

    private static String unseenKey(HasMetadata o) {
        return ResourceKind.keyOf(o) + " " + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    /**
     * A pass compared this version of a cached object with its desired state: it carries the one of checksum
     * {@code verified} ("" when its content is never compared, created once). The cache drops its whole JSON.
     */
    void verified(HasMetadata live, String verified) {
        InformerCacheStore store = storeOf(live);
        if (store != null) {
            store.verified(live, verified);
        }
    }

    /** The whole JSON tree of this version of a cached object that no pass compared yet, or null. */
    JsonNode wholeTree(HasMetadata live) {
        InformerCacheStore store = storeOf(live);
        return store == null ? null : store.wholeTree(live);
    }

    private InformerCacheStore storeOf(HasMetadata object) {
        SharedIndexInformer<HasMetadata> informer = informers.get(ResourceKind.keyOf(object));
        return informer == null ? null : stores.get(informer);
    }

    public boolean isWatching() {
        return !informers.isEmpty() && informers.values().stream().allMatch(SharedIndexInformer::isWatching)
                && (othersSecrets == null || othersSecrets.isWatching());
    }

    /**
     * The kinds whose informer stopped although the cache was not closed: their objects are no longer
     * watched, so drift on them goes unnoticed (reported by the liveness check; empty on a follower).
     */
    public List<String> stoppedKinds() {
        Stream<String> ours = informers.entrySet().stream()
                .filter(e -> e.getValue().stopped().toCompletableFuture().isDone())
                .map(Map.Entry::getKey);
        return othersSecrets == null ? ours.toList()
                : Stream.concat(ours, othersSecrets.stoppedKinds().stream().map(k -> "others' " + k)).toList();
    }

    SharedIndexInformer<HasMetadata> informerOf(ResourceKind kind) {
        return informers.get(kind.key());
    }

    @Override
    public synchronized void close() {
        if (watchdog != null) {
            watchdog.close();
            watchdog = null;
        }
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
        stores.clear();
        if (othersSecrets != null) {
            othersSecrets.close();
        }
    }

    /** An informer that keeps listing until it syncs, and watching once it has (see {@link #retry}). */
    SharedIndexInformer<HasMetadata> newInformer(ResourceKind kind) {
        var inAnyNamespace = kind.operations(client).inAnyNamespace();
        SharedIndexInformer<HasMetadata> informer = (othersOnly ? inAnyNamespace.withoutLabel(Labels.MANAGED_BY, managedBy)
                        .withoutLabel(Labels.PRIVATE, "true").withoutLabel(HELM_RELEASE_OWNER, "helm")
                        : inAnyNamespace.withLabel(Labels.MANAGED_BY, managedBy))
                .withLimit(LIST_PAGE)
                .runnableInformer(0);
        InformerCacheStore store =
                new InformerCacheStore(o -> ownCreates.holds(unseenKey(o), o.getMetadata().getResourceVersion()));
        // Objects are kept compact (P6) and looked up by key only: no namespace index either.
        informer.itemStore(store).removeNamespaceIndex();
        stores.put(informer, store);
        informer.addEventHandler(new Handler());
        informer.exceptionHandler((started, failure) -> {
            failedKinds.add(kind.key());
            return retry(failure);
        });
        return informer;
    }

    /**
     * Puts a freshly listed informer in place of the current one of its kind (see {@link InformerWatchdog}),
     * and reports the objects the old one still held but the new list lacks as deleted: their delete
     * event was lost while the watch was down. False if the cache was closed meanwhile.
     */
    synchronized boolean replace(ResourceKind kind, SharedIndexInformer<HasMetadata> fresh) {
        SharedIndexInformer<HasMetadata> old = informers.get(kind.key());
        if (old == null) {
            return false;
        }
        informers.put(kind.key(), fresh);
        failedKinds.remove(kind.key()); // the fresh list covers what its own retries missed
        old.close();
        stores.remove(old);
        old.getStore().list().stream()
                .filter(o -> fresh.getStore().get(o) == null)
                .forEach(gone -> {
                    ownCreates.forget(unseenKey(gone)); // deleted meanwhile: never an echo
                    listeners.forEach(l -> l.accept(gone));
                });
        return true;
    }

    /**
     * fabric8's default gives up on a watch that fails with anything but 410 Gone (a 500 or 429 to the
     * watch request after the API server dropped it), silently: the cache then keeps its last view for
     * good and drift goes unnoticed. Every failure is retried with fabric8's exponential backoff; a start
     * that does not sync within its timeout fails, so the leader steps down and competes again.
     */
    private static boolean retry(Throwable failure) {
        LOG.warnf("watch or list failed, trying again with backoff: %s", failure.toString());
        return true;
    }

    private final class Handler implements ResourceEventHandler<HasMetadata> {
        @Override
        public void onAdd(HasMetadata obj) {
            unseen.remove(unseenKey(obj)); // in the store now (updated before handlers are told)
            listeners.forEach(l -> l.accept(obj));
        }

        @Override
        public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
            unseen.remove(unseenKey(newObj));
            listeners.forEach(l -> l.accept(newObj));
        }

        @Override
        public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
            ownCreates.forget(unseenKey(obj)); // a delete is never an echo of our create
            listeners.forEach(l -> l.accept(obj));
        }
    }
}
