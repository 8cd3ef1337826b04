package io.lakehouse.access.store;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tables {@code instances} (projection of lakehouse.instances) and {@code grants}; an instance comes with its request
 * ({@link RequestedInstances}).
 */
@ApplicationScoped
public class GrantStore {

    private final Pool pool;

    GrantStore(Pool pool) {
        this.pool = pool;
    }

    /** Every instance with its grants: the start-up load of the forward-auth index. */
    public Uni<Map<InstanceKey, Set<Subject>>> all() {
        return pool.query("SELECT i.namespace, i.kind, i.name, g.subject_type, g.subject FROM instances i"
                        + " LEFT JOIN grants g USING (namespace, kind, name)").execute()
                .map(rows -> {
                    Map<InstanceKey, Set<Subject>> all = new LinkedHashMap<>();
                    for (Row r : rows) {
                        Set<Subject> subjects = all.computeIfAbsent(
                                new InstanceKey(r.getString(0), r.getString(1), r.getString(2)),
                                k -> new LinkedHashSet<>());
                        if (r.getString(3) != null) {
                            subjects.add(subject(r, 3));
                        }
                    }
                    return all;
                });
    }

    /** True when the instance exists; locks it so a concurrent deletion waits for this transaction. */
    public Uni<Boolean> lockInstance(SqlConnection tx, InstanceKey key) {
        return tx.preparedQuery("SELECT 1 FROM instances WHERE namespace = $1 AND kind = $2 AND name = $3 FOR UPDATE")
                .execute(keyTuple(key))
                .map(rows -> rows.size() == 1);
    }

    /**
     * The instance's grants (by type, then name), or empty when the instance does not exist: one statement for the
     * grants API's list and for a replica's forward-auth index reloading an instance ({@link GrantIndex}).
     */
    public Uni<Optional<List<Subject>>> grantsIfExists(InstanceKey key) {
        return pool.preparedQuery("SELECT g.subject_type, g.subject FROM instances i LEFT JOIN grants g"
                        + " USING (namespace, kind, name) WHERE i.namespace = $1 AND i.kind = $2 AND i.name = $3"
                        + " ORDER BY g.subject_type, g.subject")
                .execute(keyTuple(key))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    List<Subject> subjects = new ArrayList<>();
                    for (Row r : rows) {
                        if (r.getString(0) != null) { // the instance's one row without a grant
                            subjects.add(subject(r, 0));
                        }
                    }
                    return Optional.of(subjects);
                });
    }

    public Uni<List<Subject>> grants(SqlClient client, InstanceKey key) {
        return client.preparedQuery("SELECT subject_type, subject FROM grants WHERE namespace = $1 AND kind = $2"
                        + " AND name = $3 ORDER BY subject_type, subject")
                .execute(keyTuple(key))
                .map(GrantStore::subjects);
    }

    /** True when the grant is new. */
    public Uni<Boolean> add(SqlConnection tx, InstanceKey key, Subject subject) {
        return tx.preparedQuery("INSERT INTO grants (namespace, kind, name, subject_type, subject)"
                        + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING")
                .execute(keyTuple(key).addString(subject.type().wireName()).addString(subject.name()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** True when a grant was removed. */
    public Uni<Boolean> remove(SqlConnection tx, InstanceKey key, Subject subject) {
        return tx.preparedQuery("DELETE FROM grants WHERE namespace = $1 AND kind = $2 AND name = $3"
                        + " AND subject_type = $4 AND subject = $5")
                .execute(keyTuple(key).addString(subject.type().wireName()).addString(subject.name()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Deletes every grant of the subject on the namespace's instances; returns those instances. */
    public Uni<List<InstanceKey>> removeSubject(SqlConnection tx, String namespace, Subject subject) {
        return tx.preparedQuery("DELETE FROM grants WHERE namespace = $1 AND subject_type = $2 AND subject = $3"
                        + " RETURNING kind, name")
                .execute(Tuple.of(namespace, subject.type().wireName(), subject.name()))
                .map(rows -> {
                    List<InstanceKey> keys = new ArrayList<>();
                    rows.forEach(r -> keys.add(new InstanceKey(namespace, r.getString(0), r.getString(1))));
                    return keys;
                });
    }

    private static Tuple keyTuple(InstanceKey key) {
        return Tuple.of(key.namespace(), key.kind(), key.name());
    }

    private static List<Subject> subjects(Iterable<Row> rows) {
        List<Subject> subjects = new ArrayList<>();
        rows.forEach(r -> subjects.add(subject(r, 0)));
        return subjects;
    }

    private static Subject subject(Row r, int at) {
        return new Subject(Subject.Type.fromWireName(r.getString(at)), r.getString(at + 1));
    }
}
