package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.ReadCost;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The read API (P1): an unchanged row is not decoded again, a change (by this service or any other writer
 * of the row) is seen by the next read, a token already verified is not verified again, and a statement is
 * prepared once per connection.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogReadsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    InstanceStore store;

    @Inject
    Pool pool;

    @Test
    void anUnchangedCatalogIsNotDecodedAgainAndAnyChangeIsSeenByTheNextRead() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", "s3cr3t").toString()).post(catalogs(ns)).then().statusCode(201);

        // Two reads with no write between them give the very same decoded instance (the reconciler may
        // write the row meanwhile, hence the wait for a quiet moment).
        await().atMost(WAIT).until(() -> read(ns, "cat") == read(ns, "cat"));

        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"resources\":{\"memory\":\"2Gi\"}}}")
                .patch(catalogs(ns) + "/cat").then().statusCode(200);
        asAdmin().get(catalogs(ns) + "/cat").then().statusCode(200)
                .body("generation", equalTo(2)).body("spec.resources.memory", equalTo("2Gi"));

        // Another writer (another replica, an operator's SQL) changes a column the reconciler never writes (so
        // that its own status writes cannot hide the result): the next reads show it.
        pool.preparedQuery("UPDATE instances SET created_by = 'someone-else' WHERE namespace = $1 AND name = 'cat'")
                .execute(Tuple.of(ns)).await().atMost(WAIT);
        asAdmin().get(catalogs(ns) + "/cat").then().statusCode(200).body("createdBy", equalTo("someone-else"));
        asAdmin().get(catalogs(ns)).then().statusCode(200).body("items[0].createdBy", equalTo("someone-else"));
    }

    @Test
    void aCallerReadingAgainWithTheSameTokenIsNotVerifiedAgain() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", "s3cr3t").toString()).post(catalogs(ns)).then().statusCode(201);
        List<String> paths = List.of(catalogs(ns) + "/cat", catalogs(ns) + "?limit=50");
        ReadCost.ByToken cost = ReadCost.byToken(400, paths);
        System.out.printf("catalog reads, a new token each: %s; the same token: %s%n", cost.newTokens(),
                cost.sameToken());
        assertThat(cost.sameToken().bytesPerRead()).isLessThan(cost.newTokens().bytesPerRead() * 2 / 3);
    }

    @Test
    void aReadStatementIsPreparedOnceAndStaysPreparedOnItsConnection() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", "s3cr3t").toString()).post(catalogs(ns)).then().statusCode(201);
        String sql = "SELECT name FROM instances WHERE namespace = $1 AND name = $2";

        // Run twice on one connection, then ask that connection's session what it keeps prepared: without the
        // statement cache each execution is an unnamed statement, parsed and planned again, and none is listed.
        Long prepared = pool.withConnection(conn -> conn.preparedQuery(sql).execute(Tuple.of(ns, "cat"))
                        .chain(() -> conn.preparedQuery(sql).execute(Tuple.of(ns, "cat")))
                        .chain(() -> conn.preparedQuery("SELECT count(*) FROM pg_prepared_statements"
                                + " WHERE statement = $1").execute(Tuple.of(sql)))
                        .map(rows -> rows.iterator().next().getLong(0)))
                .await().atMost(WAIT);
        assertThat(prepared).isEqualTo(1L);
    }

    private Instance read(String ns, String name) {
        return store.read(ns, name).await().atMost(WAIT).instance();
    }
}
