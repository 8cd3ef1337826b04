package io.lakehouse.access.store;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.security.Subject;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-memory host → instance → grants index for forward-auth: loaded from the database at start,
 * then updated by the writers after each commit, so an authz call costs no database round trip.
 */
@ApplicationScoped
public class GrantIndex {

    private final GrantStore store;
    private final String domain;
    private final Map<String, InstanceKey> byHost = new ConcurrentHashMap<>();
    private final Map<InstanceKey, Set<Subject>> grants = new ConcurrentHashMap<>();

    GrantIndex(GrantStore store, ClusterSettings cluster) {
        this.store = store;
        this.domain = cluster.domain().toLowerCase(Locale.ROOT);
    }

    void load(@Observes StartupEvent event) {
        store.all().await().indefinitely().forEach((key, subjects) -> {
            instanceAdded(key);
            subjects.forEach(s -> granted(key, s));
        });
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

    public void instanceAdded(InstanceKey key) {
        grants.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
        byHost.put(key.host(domain), key);
    }

    public void instanceRemoved(InstanceKey key) {
        grants.remove(key);
        byHost.remove(key.host(domain), key);
    }

    public void granted(InstanceKey key, Subject subject) {
        Set<Subject> holders = grants.get(key);
        if (holders != null) {
            holders.add(subject);
        }
    }

    public void revoked(InstanceKey key, Subject subject) {
        Set<Subject> holders = grants.get(key);
        if (holders != null) {
            holders.remove(subject);
        }
    }
}
