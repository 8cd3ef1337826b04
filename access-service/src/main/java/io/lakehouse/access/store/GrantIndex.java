package io.lakehouse.access.store;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.outbox.PgChannelListener;
import io.lakehouse.common.security.Subject;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;

/**
 * In-memory host → instance → grants index for forward-auth, so an authz call costs no database
 * round trip. Every replica serves forward-auth but one replica commits each change (an API call, or
 * the one consumer of the service's group), so the index follows the tables, not the writers: the
 * {@code instances} and {@code grants} triggers notify channel {@code grants_<schema>} at commit with
 * the instance's {@code namespace/kind/name}, and each replica reloads that instance (everything after
 * a (re)connection of the listener, when notifications may have been missed). All reloads run one
 * after the other on one thread, so the last reload of an instance reads its last commit.
 */
@ApplicationScoped
public class GrantIndex {

    private static final Logger LOG = Logger.getLogger(GrantIndex.class);
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);
    /** Notifications wake the listener at once; the timeout only paces the retry of a failed reload. */
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(5);

    private final GrantStore store;
    private final String domain;
    private final Pool pool;
    private final String channel;
    private final Map<String, InstanceKey> byHost = new ConcurrentHashMap<>();
    private final Map<InstanceKey, Set<Subject>> grants = new ConcurrentHashMap<>();
    private final ExecutorService reloads = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "grant-index");
        t.setDaemon(true);
        return t;
    });
    private PgChannelListener listener;
    private volatile boolean reloadAll;

    GrantIndex(GrantStore store, ClusterSettings cluster, Pool pool, ServiceSettings service) {
        this.store = store;
        this.domain = cluster.domain().toLowerCase(Locale.ROOT);
        this.pool = pool;
        this.channel = "grants_" + service.schema();
    }

    void start(@Observes StartupEvent event) {
        loadAll();
        listener = new PgChannelListener(pool, channel, LISTEN_TIMEOUT, this::changed).start();
    }

    void stop(@Observes ShutdownEvent event) {
        if (listener != null) {
            listener.close();
        }
        reloads.shutdownNow();
    }

    /**
     * Reloads an instance after the caller's commit, in order with the notifications: the replica
     * that made a change answers with it at once (the others within milliseconds).
     */
    public Uni<Void> refresh(InstanceKey key) {
        return Uni.createFrom().completionStage(CompletableFuture.runAsync(() -> load(key), reloads));
    }

    /** The instance served at a public host ({@code host[:port]}, any case), if any. */
    public Optional<InstanceKey> instanceAt(String host) {
        String bare = host.toLowerCase(Locale.ROOT).replaceFirst(":\\d+$", "");
        return Optional.ofNullable(byHost.get(bare));
    }

    /** True when the user, or one of the groups, holds a grant on the instance. */
    public boolean allows(InstanceKey key, String user, Collection<String> groups) {
        Set<Subject> holders = grants.getOrDefault(key, Set.of());
        return holders.contains(Subject.user(user)) || groups.stream().anyMatch(g -> holders.contains(Subject.group(g)));
    }

    /** The listener's callback: null after a (re)connection, instance subjects otherwise. */
    private void changed(List<String> subjects) {
        boolean all = subjects == null;
        try {
            reloads.submit(() -> {
                if (all || reloadAll) {
                    loadAll();
                } else {
                    subjects.stream().distinct().map(GrantIndex::keyOf).forEach(this::load);
                }
            }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            reloadAll = true; // the notification is consumed: reload everything on the next wake
            LOG.warnf("grant index reload failed, retrying: %s", e.getCause().getMessage());
        }
    }

    private void loadAll() {
        Map<InstanceKey, Set<Subject>> fresh = store.all().await().atMost(QUERY_TIMEOUT);
        reloadAll = false;
        grants.keySet().stream().filter(key -> !fresh.containsKey(key)).toList().forEach(this::instanceRemoved);
        fresh.forEach(this::put);
    }

    private void load(InstanceKey key) {
        store.grantsIfExists(key).await().atMost(QUERY_TIMEOUT)
                .ifPresentOrElse(holders -> put(key, new HashSet<>(holders)), () -> instanceRemoved(key));
    }

    private void put(InstanceKey key, Set<Subject> holders) {
        Set<Subject> set = ConcurrentHashMap.newKeySet();
        set.addAll(holders);
        grants.put(key, set);
        byHost.put(key.host(domain), key);
    }

    private void instanceRemoved(InstanceKey key) {
        grants.remove(key);
        byHost.remove(key.host(domain), key);
    }

    /** The trigger's payload {@code namespace/kind/name}. */
    private static InstanceKey keyOf(String subject) {
        String[] parts = subject.split("/", 3);
        return new InstanceKey(parts[0], parts[1], parts[2]);
    }
}
