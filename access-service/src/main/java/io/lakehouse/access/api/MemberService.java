package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.domain.Subjects;
import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.access.store.GrantIndex;
import io.lakehouse.access.store.GrantStore;
import io.lakehouse.access.store.Member;
import io.lakehouse.access.store.MemberStore;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Sets and removes memberships with their events: a set in one statement with its audit outcome, a removal in one
 * transaction; an unchanged role writes nothing. A removed member also loses its grants on the namespace's instances
 * (the deployer's automatic one too), each with {@code access.grant-removed}, in the same transaction: leaving a
 * namespace means no more access to what runs in it.
 */
@ApplicationScoped
public class MemberService {

    private final Pool pool;
    private final MemberStore store;
    private final GrantStore grants;
    private final GrantIndex index;
    private final AccessEvents events;

    MemberService(Pool pool, MemberStore store, GrantStore grants, GrantIndex index, AccessEvents events) {
        this.pool = pool;
        this.store = store;
        this.grants = grants;
        this.index = index;
        this.events = events;
    }

    public Uni<Member> set(String namespace, Subject subject, Role role) {
        return store.set(namespace, subject, role, events.memberSet(namespace, subject, role))
                .replaceWith(new Member(namespace, subject, role));
    }

    public Uni<Void> remove(String namespace, Subject subject) {
        return pool.withTransaction(tx -> store.delete(tx, namespace, subject).chain(deleted -> {
                    if (!deleted) {
                        throw ApiException.notFound(Subjects.notMember(namespace, subject));
                    }
                    return Outbox.append(tx, events.memberRemoved(namespace, subject))
                            .chain(() -> grants.removeSubject(tx, namespace, subject))
                            .call(revoked -> revokeEach(tx, revoked, subject));
                }))
                .chain(this::refreshEach);
    }

    /** This replica answers with the revocations at once (the others follow the grants table's notifications). */
    private Uni<Void> refreshEach(List<InstanceKey> revoked) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (InstanceKey key : revoked) {
            chain = chain.chain(() -> index.refresh(key));
        }
        return chain;
    }

    private Uni<Void> revokeEach(SqlConnection tx, List<InstanceKey> revoked, Subject subject) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (InstanceKey key : revoked) {
            chain = chain.chain(() -> Outbox.append(tx, events.grantRemoved(key, subject)));
        }
        return chain;
    }
}
