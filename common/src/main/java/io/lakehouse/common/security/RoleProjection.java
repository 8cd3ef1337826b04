package io.lakehouse.common.security;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Local projection of namespace memberships from {@code lakehouse.access} events: kept in this
 * service's schema (so it survives restarts) and in memory (so authorization costs no round trip).
 */
@ApplicationScoped
public class RoleProjection {

    private final Pool pool;
    private final Map<String, Map<Subject, Role>> byNamespace = new ConcurrentHashMap<>();

    RoleProjection(Pool pool) {
        this.pool = pool;
    }

    /** Loads the stored projection; called once at start-up, before the consumer runs. */
    public Uni<Void> load() {
        return pool.query("SELECT namespace, subject_type, subject, role FROM member_roles").execute()
                .invoke(rows -> {
                    byNamespace.clear();
                    for (Row row : rows) {
                        remember(row.getString(0), new Subject(Subject.Type.fromWireName(row.getString(1)),
                                row.getString(2)), Role.fromWireName(row.getString(3)).orElseThrow());
                    }
                })
                .replaceWithVoid();
    }

    public Optional<Role> roleOf(String namespace, Subject subject) {
        return Optional.ofNullable(byNamespace.getOrDefault(namespace, Map.of()).get(subject));
    }

    /** Stores a membership inside the consumer's transaction; call {@link #remember} after commit. */
    Uni<Void> store(SqlConnection tx, String namespace, Subject subject, Role role, Instant at) {
        return tx.preparedQuery("INSERT INTO member_roles (namespace, subject_type, subject, role, updated_at)"
                        + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (namespace, subject_type, subject)"
                        + " DO UPDATE SET role = EXCLUDED.role, updated_at = EXCLUDED.updated_at")
                .execute(Tuple.of(namespace, subject.type().wireName(), subject.name(), role.wireName(),
                        at.atOffset(ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    Uni<Void> remove(SqlConnection tx, String namespace, Subject subject) {
        return tx.preparedQuery("DELETE FROM member_roles WHERE namespace = $1 AND subject_type = $2 AND subject = $3")
                .execute(Tuple.of(namespace, subject.type().wireName(), subject.name()))
                .replaceWithVoid();
    }

    void remember(String namespace, Subject subject, Role role) {
        byNamespace.computeIfAbsent(namespace, ns -> new ConcurrentHashMap<>()).put(subject, role);
    }

    void forget(String namespace, Subject subject) {
        Map<Subject, Role> members = byNamespace.get(namespace);
        if (members != null) {
            members.remove(subject);
        }
    }
}
