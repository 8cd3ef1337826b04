package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.hamcrest.Matchers.equalTo;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A DELETE answers 202 with the instance as it marked it (phase Deleting), also when its reconcile pass forgets the
 * instance before the answer is built: the service read the instance again after marking it, and answered 404 for a
 * deletion it had started (seen in the README demo, a NiFi forgotten 125 ms after its mark).
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class DeleteAnswerTest {

    @Inject
    Pool pool;

    @AfterEach
    void dropTrigger() {
        sql("DROP TRIGGER IF EXISTS test_forget_at_once ON instances");
        sql("DROP FUNCTION IF EXISTS test_forget_at_once()");
    }

    @Test
    void aDeletionForgottenBeforeItsAnswerIsStill202Deleting() {
        String ns = Callers.freshNamespace();
        asAdmin().body(Api.catalogRequest("fast", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        // The fastest possible pass: the row goes in the statement that marks it.
        sql("CREATE FUNCTION test_forget_at_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " DELETE FROM instances WHERE uid = NEW.uid; RETURN NULL; END $$");
        sql("CREATE TRIGGER test_forget_at_once AFTER UPDATE ON instances FOR EACH ROW"
                + " WHEN (NEW.deleting AND NEW.namespace = '" + ns + "') EXECUTE FUNCTION test_forget_at_once()");

        asAdmin().delete(catalogs(ns) + "/fast").then().statusCode(202)
                .body("name", equalTo("fast")).body("status.phase", equalTo("Deleting"));
        asAdmin().get(catalogs(ns) + "/fast").then().statusCode(404);
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }
}
