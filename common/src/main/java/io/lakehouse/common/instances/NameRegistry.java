package io.lakehouse.common.instances;

import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Names;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The names every instance service shares ({@code registry.instance_names}): an instance name is
 * unique in its namespace across all kinds and services (their Kubernetes objects are named after
 * it), and its public host label {@code <name>-<namespace>} is unique in the cluster. Claims are made
 * and released by the statement that stores or forgets the instance row.
 */
public final class NameRegistry {

    private NameRegistry() {}

    /**
     * The claim of an instance's name and host label as the data-modifying CTE {@code claim}, for the statement that
     * stores the instance with it: a row when both were free, none when either is taken ({@link #conflict} then says
     * by what). Parameters: $1–$4 the instance's namespace, name, kind and uid, {@code $hostLabel} its {@link
     * #hostLabel}; {@code condition} is evaluated first (the statement's {@code set_config}).
     */
    static String claimCte(int hostLabel, String condition) {
        return "claim AS (INSERT INTO registry.instance_names (namespace, name, kind, uid, host_label)"
                + " SELECT $1, $2, $3, $4::uuid, $" + hostLabel + " WHERE " + condition
                + " ON CONFLICT DO NOTHING RETURNING uid)";
    }

    static String hostLabel(String namespace, String name) {
        return Names.hostLabel(name, namespace);
    }

    /**
     * The release of a forgotten instance's claims as the data-modifying CTE {@code released}, for the statement that
     * forgets it: the claims of the uids the CTE {@code forgotten} returns (a column {@code uid}).
     */
    static String releaseCte(String forgotten) {
        return "released AS (DELETE FROM registry.instance_names WHERE uid IN (SELECT uid FROM " + forgotten + "))";
    }

    /** Fails with a 409 naming what holds the name or the host label (after a claim that got neither). */
    static Uni<Void> conflict(SqlClient client, String namespace, String name) {
        return client.preparedQuery("SELECT kind FROM registry.instance_names WHERE namespace = $1 AND name = $2")
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
