package io.lakehouse.common.instances;

import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Who holds a grant on each of the service's instances (its table {@code instance_grants}), as
 * access-service publishes it ({@link GrantEvents}).
 */
@ApplicationScoped
public class GrantStore {

    private final Pool pool;

    GrantStore(Pool pool) {
        this.pool = pool;
    }

    /** The instance's grants, users first, each type by name: a stable order for generated files. */
    public Uni<List<Subject>> of(String namespace, String name) {
        return pool.preparedQuery("SELECT subject_type, subject FROM instance_grants WHERE namespace = $1 AND name = $2"
                        + " ORDER BY subject_type DESC, subject")
                .execute(Tuple.of(namespace, name))
                .map(rows -> {
                    List<Subject> subjects = new ArrayList<>();
                    for (Row row : rows) {
                        subjects.add(new Subject(Subject.Type.fromWireName(row.getString("subject_type")),
                                row.getString("subject")));
                    }
                    return subjects;
                });
    }

    public Uni<Void> add(SqlConnection tx, String namespace, String name, String kind, Subject subject) {
        return tx.preparedQuery("INSERT INTO instance_grants (namespace, name, kind, subject_type, subject)"
                        + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(namespace, name, kind, subject.type().wireName(), subject.name())).replaceWithVoid();
    }

    public Uni<Void> remove(SqlConnection tx, String namespace, String name, Subject subject) {
        return tx.preparedQuery("DELETE FROM instance_grants WHERE namespace = $1 AND name = $2 AND subject_type = $3"
                        + " AND subject = $4")
                .execute(Tuple.of(namespace, name, subject.type().wireName(), subject.name())).replaceWithVoid();
    }
}
