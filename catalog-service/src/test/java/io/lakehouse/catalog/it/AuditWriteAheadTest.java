package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit log loses nothing: a mutating call is recorded before it runs, and a replica that stops
 * between the change and the outcome still leaves the call in the log (without an outcome).
 */
@QuarkusTest
@TestProfile(AuditWriteAheadTest.QuickOrphans.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class AuditWriteAheadTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(20);
    private static final String WHAT = "POST /api/v1/namespaces/{namespace}/instances/iceberg-catalog";

    /** Intents older than two seconds are orphans, looked for every second. */
    public static class QuickOrphans implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lakehouse.audit.orphan-after", "2s", "lakehouse.audit.sweep-interval", "1s");
        }
    }

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    String ns;

    @BeforeEach
    void namespace() {
        ClusterSimulation.of(kube);
        ns = Callers.freshNamespace();
    }

    @Test
    void aCallWhoseReplicaStopsBeforeItsChangeCommitsIsStillInTheAuditLog() {
        try (EventReader audit = new EventReader("lakehouse.audit")) {
            // The replica "stops" before the change and its outcome commit (they commit together): only the intent,
            // committed before the call ran, is left.
            sql("CREATE OR REPLACE FUNCTION stop_before_outcome() RETURNS trigger LANGUAGE plpgsql AS $$"
                    + " BEGIN RAISE EXCEPTION 'the replica stopped'; END $$");
            sql("CREATE TRIGGER stop_before_outcome BEFORE DELETE ON audit_intents"
                    + " FOR EACH ROW EXECUTE FUNCTION stop_before_outcome()");
            try {
                asAdmin().header("X-Request-Id", "req-" + ns).body(Api.catalogRequest("cat", "k").toString())
                        .post(catalogs(ns)).then().statusCode(503);
            } finally {
                sql("DROP TRIGGER stop_before_outcome ON audit_intents");
            }
            asAdmin().get(catalogs(ns) + "/cat").then().statusCode(404);

            await().atMost(PROPAGATION).until(() -> !calls(audit, "req-" + ns).isEmpty());
            await().during(Duration.ofSeconds(3)).until(() -> calls(audit, "req-" + ns).size() == 1);
            LakehouseEvent call = calls(audit, "req-" + ns).get(0);
            assertThat(call.data().get("who").asText()).isEqualTo("root-admin");
            assertThat(call.data().get("what").asText()).isEqualTo(WHAT);
            assertThat(call.data().get("target").asText()).isEqualTo(catalogs(ns));
            assertThat(call.data().has("outcome")).as("the outcome was never known").isFalse();
        }
    }

    /**
     * A successful create commits twice: its audit intent before it runs, then the instance, its event and the audit
     * outcome together (the outcome used to commit in a third transaction after the answer).
     */
    @Test
    void aSuccessfulCreateCommitsTheIntentAndThenTheChangeWithItsOutcome() {
        // What each transaction wrote: the table, or the outbox row's event type.
        sql("CREATE TABLE IF NOT EXISTS tx_seen (what TEXT, subject TEXT, xid BIGINT)");
        sql("CREATE OR REPLACE FUNCTION tx_seen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF TG_TABLE_NAME = 'instances' THEN INSERT INTO tx_seen VALUES ('instances', NEW.namespace,"
                + " txid_current()); ELSIF TG_TABLE_NAME = 'outbox' THEN INSERT INTO tx_seen VALUES (NEW.type,"
                + " NEW.subject, txid_current()); ELSE INSERT INTO tx_seen VALUES (TG_TABLE_NAME, NEW.subject,"
                + " txid_current()); END IF; RETURN NULL; END $$");
        for (String table : List.of("audit_intents", "instances", "outbox")) {
            sql("CREATE OR REPLACE TRIGGER tx_seen AFTER INSERT ON " + table
                    + " FOR EACH ROW EXECUTE FUNCTION tx_seen()");
        }
        try (EventReader audit = new EventReader("lakehouse.audit")) {
            asAdmin().header("X-Request-Id", "req-" + ns).body(Api.catalogRequest("cat", "k").toString())
                    .post(catalogs(ns)).then().statusCode(201);
            // Refused (422): nothing changes, its outcome follows the answer in a statement of its own.
            asAdmin().header("X-Request-Id", "bad-" + ns).body(Api.catalogRequest("Bad_Name", "k").toString())
                    .post(catalogs(ns)).then().statusCode(422);
            await().atMost(PROPAGATION).until(() -> calls(audit, "req-" + ns).size() == 1
                    && calls(audit, "bad-" + ns).size() == 1);
            assertThat(calls(audit, "req-" + ns).get(0).data().get("outcome").asInt()).isEqualTo(201);
            assertThat(calls(audit, "bad-" + ns).get(0).data().get("outcome").asInt()).isEqualTo(422);
        } finally {
            for (String table : List.of("audit_intents", "instances", "outbox")) {
                sql("DROP TRIGGER tx_seen ON " + table);
            }
        }
        // This namespace's rows (not the reconcile passes' status events): what each transaction wrote, in order.
        List<String> rows = pool.preparedQuery("SELECT what || ' ' || dense_rank() OVER (ORDER BY xid) FROM tx_seen"
                        + " WHERE subject LIKE $1 AND (what NOT LIKE 'lakehouse.instance.%' OR what = $2)"
                        + " ORDER BY xid, what")
                .execute(Tuple.of(ns + "%", EventType.INSTANCE_REQUESTED.cloudEventType()))
                .await().atMost(PROPAGATION).stream().map(r -> r.getString(0)).toList();
        String audited = EventType.AUDIT_RECORDED.cloudEventType();
        String requested = EventType.INSTANCE_REQUESTED.cloudEventType();
        assertThat(rows).as("rows written, by transaction").containsExactly(
                "audit_intents 1", // the create's intent
                "instances 2", audited + " 2", requested + " 2", // the create with its event and audit outcome
                "audit_intents 3", // the refused call's intent
                audited + " 4"); // its outcome
    }

    @Test
    void theOutcomeReplacesTheIntentOnce() {
        try (EventReader audit = new EventReader("lakehouse.audit")) {
            asAdmin().header("X-Request-Id", "req-" + ns).body(Api.catalogRequest("cat", "k").toString())
                    .post(catalogs(ns)).then().statusCode(201);
            await().atMost(PROPAGATION).until(() -> !calls(audit, "req-" + ns).isEmpty());
            // Longer than an orphan's age: the intent was replaced, not published on top.
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10))
                    .until(() -> calls(audit, "req-" + ns).size() == 1);
            assertThat(calls(audit, "req-" + ns).get(0).data().get("outcome").asInt()).isEqualTo(201);
        }
    }

    private static List<LakehouseEvent> calls(EventReader audit, String requestId) {
        return audit.events("").stream().filter(e -> e.type() == EventType.AUDIT_RECORDED)
                .filter(e -> requestId.equals(e.data().path("requestId").asText())).toList();
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().atMost(PROPAGATION);
    }
}
