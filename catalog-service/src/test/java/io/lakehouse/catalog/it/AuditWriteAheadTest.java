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
    void aCallWhoseReplicaStopsBeforeTheOutcomeIsStillInTheAuditLog() {
        try (EventReader audit = new EventReader("lakehouse.audit")) {
            // The replica "stops" right after the change: the outcome's transaction never commits.
            sql("CREATE OR REPLACE FUNCTION stop_before_outcome() RETURNS trigger LANGUAGE plpgsql AS $$"
                    + " BEGIN RAISE EXCEPTION 'the replica stopped'; END $$");
            sql("CREATE TRIGGER stop_before_outcome BEFORE DELETE ON audit_intents"
                    + " FOR EACH ROW EXECUTE FUNCTION stop_before_outcome()");
            try {
                asAdmin().header("X-Request-Id", "req-" + ns).body(Api.catalogRequest("cat", "k").toString())
                        .post(catalogs(ns)).then().statusCode(201);
            } finally {
                sql("DROP TRIGGER stop_before_outcome ON audit_intents");
            }
            asAdmin().get(catalogs(ns) + "/cat").then().statusCode(200);

            await().atMost(PROPAGATION).until(() -> !calls(audit, "req-" + ns).isEmpty());
            await().during(Duration.ofSeconds(3)).until(() -> calls(audit, "req-" + ns).size() == 1);
            LakehouseEvent call = calls(audit, "req-" + ns).get(0);
            assertThat(call.data().get("who").asText()).isEqualTo("root-admin");
            assertThat(call.data().get("what").asText()).isEqualTo(WHAT);
            assertThat(call.data().get("target").asText()).isEqualTo(catalogs(ns));
            assertThat(call.data().has("outcome")).as("the outcome was never known").isFalse();
        }
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
