package io.lakehouse.access.store;

import io.lakehouse.common.audit.AuditedChange;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Table {@code members}: the memberships set through the API. */
@ApplicationScoped
public class MemberStore {

    private static final String COLUMNS = "SELECT namespace, subject_type, subject, role FROM members";

    private final Pool pool;

    MemberStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Member>> list(String namespace) {
        return pool.preparedQuery(COLUMNS + " WHERE namespace = $1 ORDER BY subject_type, subject")
                .execute(Tuple.of(namespace))
                .map(rows -> {
                    List<Member> members = new ArrayList<>();
                    rows.forEach(r -> members.add(member(r)));
                    return members;
                });
    }

    public Uni<Optional<Member>> get(String namespace, Subject subject) {
        return pool.preparedQuery(COLUMNS + " WHERE namespace = $1 AND subject_type = $2 AND subject = $3")
                .execute(Tuple.of(namespace, subject.type().wireName(), subject.name()))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(member(rows.iterator().next())));
    }

    /**
     * Gives {@code subject} {@code role} in {@code namespace} and appends {@code event} (its {@code access.member-set}),
     * in one statement with the call's audit outcome ({@link AuditedChange}); false when it held that role already
     * (nothing written). Two PUTs of one member serialize on the row's lock, and each that changes the role publishes.
     */
    public Uni<Boolean> set(String namespace, Subject subject, Role role, LakehouseEvent event) {
        return AuditedChange.execute(pool, "INSERT INTO members (namespace, subject_type, subject, role)"
                        + " VALUES ($1, $2, $3, $4) ON CONFLICT (namespace, subject_type, subject)"
                        + " DO UPDATE SET role = EXCLUDED.role, updated_at = now() WHERE members.role <> EXCLUDED.role",
                List.of(namespace, subject.type().wireName(), subject.name(), role.wireName()), event);
    }

    /** True when a row was deleted. */
    public Uni<Boolean> delete(SqlConnection tx, String namespace, Subject subject) {
        return tx.preparedQuery("DELETE FROM members WHERE namespace = $1 AND subject_type = $2 AND subject = $3")
                .execute(Tuple.of(namespace, subject.type().wireName(), subject.name()))
                .map(rows -> rows.rowCount() == 1);
    }

    private static Member member(Row r) {
        return new Member(r.getString(0), new Subject(Subject.Type.fromWireName(r.getString(1)), r.getString(2)),
                Role.fromWireName(r.getString(3)).orElseThrow());
    }
}
