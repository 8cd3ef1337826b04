package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.domain.Subjects;
import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.access.store.GrantIndex;
import io.lakehouse.access.store.GrantStore;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Adds and removes grants on an existing instance: rows and events in one transaction; this replica's
 * forward-auth index is reloaded before answering (the other replicas follow the commit's NOTIFY).
 */
@ApplicationScoped
public class GrantService {

    private final Pool pool;
    private final GrantStore store;
    private final GrantIndex index;
    private final AccessEvents events;

    GrantService(Pool pool, GrantStore store, GrantIndex index, AccessEvents events) {
        this.pool = pool;
        this.store = store;
        this.index = index;
        this.events = events;
    }

    /** Every grant of the instance after the change; subjects already granted change nothing. */
    public Uni<List<Subject>> add(InstanceKey key, List<Subject> subjects) {
        return pool.withTransaction(tx -> requireInstance(tx, key)
                        .chain(() -> addEach(tx, key, subjects))
                        .chain(() -> store.grants(tx, key)))
                .call(() -> index.refresh(key));
    }

    public Uni<Void> remove(InstanceKey key, Subject subject) {
        return pool.withTransaction(tx -> requireInstance(tx, key)
                        .chain(() -> store.remove(tx, key, subject))
                        .chain(removed -> {
                            if (!removed) {
                                throw ApiException.notFound("no grant for " + Subjects.wire(subject) + " on "
                                        + key.kind() + " '" + key.name() + "'");
                            }
                            return Outbox.append(tx, events.grantRemoved(key, subject));
                        }))
                .call(() -> index.refresh(key));
    }

    public Uni<List<Subject>> list(InstanceKey key) {
        return store.grantsIfExists(key).map(grants -> grants.orElseThrow(() -> notFound(key)));
    }

    private Uni<Void> addEach(SqlConnection tx, InstanceKey key, List<Subject> subjects) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Subject subject : subjects) {
            chain = chain.chain(() -> store.add(tx, key, subject)).chain(isNew -> {
                if (!isNew) {
                    return Uni.createFrom().voidItem();
                }
                return Outbox.append(tx, events.grantAdded(key, subject));
            });
        }
        return chain;
    }

    private Uni<Void> requireInstance(SqlConnection tx, InstanceKey key) {
        return store.lockInstance(tx, key).invoke(exists -> {
            if (!exists) {
                throw notFound(key);
            }
        }).replaceWithVoid();
    }

    static ApiException notFound(InstanceKey key) {
        return ApiException.notFound("no " + key.kind() + " named '" + key.name() + "' in namespace '"
                + key.namespace() + "'");
    }
}
