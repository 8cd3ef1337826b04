package io.lakehouse.common.instances;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The OIDC clients access-service has made for the service's instances (their {@code <name>-oidc} Secret
 * exists; its table {@code oidc_clients}, fed by {@link OidcClientEvents}).
 */
@ApplicationScoped
public class OidcClientStore {

    public Uni<Void> put(SqlConnection tx, String namespace, String name, String kind, String secretName) {
        return tx.preparedQuery("INSERT INTO oidc_clients (namespace, name, kind, secret_name) VALUES ($1, $2, $3, $4)"
                        + " ON CONFLICT (namespace, name) DO UPDATE SET kind = $3, secret_name = $4")
                .execute(Tuple.of(namespace, name, kind, secretName)).replaceWithVoid();
    }

    public Uni<Void> remove(SqlConnection tx, String namespace, String name) {
        return tx.preparedQuery("DELETE FROM oidc_clients WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name)).replaceWithVoid();
    }
}
