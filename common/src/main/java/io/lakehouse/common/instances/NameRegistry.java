package io.lakehouse.common.instances;

import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Names;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;

/**
 * The names every instance service shares ({@code registry.instance_names}): an instance name is
 * unique in its namespace across all kinds and services (their Kubernetes objects are named after
 * it), and its public host label {@code <name>-<namespace>} is unique in the cluster. Claims are made
 * and released inside the transaction that stores or forgets the instance row.
 */
public final class NameRegistry {

    private NameRegistry() {}

    /** Claims the instance's name and host label; a 409 naming what holds them when either is taken. */
    public static Uni<Void> claim(SqlConnection tx, String namespace, String name, String kind, UUID uid) {
        return tx.preparedQuery("INSERT INTO registry.instance_names (namespace, name, kind, uid, host_label)"
                        + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(namespace, name, kind, uid, Names.hostLabel(name, namespace)))
                .chain(rows -> rows.rowCount() == 1 ? Uni.createFrom().voidItem() : conflict(tx, namespace, name));
    }

    /** Releases the claims of a forgotten instance. */
    public static Uni<Void> release(SqlConnection tx, UUID uid) {
        return tx.preparedQuery("DELETE FROM registry.instance_names WHERE uid = $1").execute(Tuple.of(uid))
                .replaceWithVoid();
    }

    private static Uni<Void> conflict(SqlConnection tx, String namespace, String name) {
        return tx.preparedQuery("SELECT kind FROM registry.instance_names WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> {
                    if (rows.size() > 0) {
                        throw ApiException.conflict("the name '" + name + "' is already used in namespace '" + namespace
                                + "' by the " + rows.iterator().next().getString("kind") + " instance '" + name
                                + "': an instance name is unique in its namespace across every kind, since the"
                                + " instances' Kubernetes objects are named after it");
                    }
                    // The other holder is in another namespace: not named, it is another tenant's.
                    throw ApiException.conflict("the public host name '" + Names.hostLabel(name, namespace)
                            + "' this instance would get is already used by an instance of another namespace:"
                            + " choose another name");
                });
    }
}
