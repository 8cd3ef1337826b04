package io.lakehouse.notebooks.unit.jupyterhub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.KnownInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** From the instance events of catalog-service and engines-service to what user servers get. */
class KnownInstanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static KnownInstance event(String type, String data, Instant at) {
        return KnownInstance.fromEvent(type, json(data), at);
    }

    @Test
    void theEventsOfEveryReferencedKindBindTheirVariables() {
        Map<String, KnownInstance> known = Map.of(
                "iceberg-catalog", event("instance.ready", """
                        {"namespace":"team-a","kind":"iceberg-catalog","name":"cat","phase":"Ready",
                         "spec":{"internalUri":"http://cat:8181/api/catalog","rootPrincipalSecret":"cat-root-principal"}}""",
                        T0),
                "trino", event("instance.running", """
                        {"namespace":"team-a","kind":"trino","name":"trino","phase":"Running",
                         "endpoints":{"internal":"https://trino.team-a.svc:8443","public":"https://x/ui/"}}""", T0),
                "spark-connect", event("instance.ready", """
                        {"namespace":"team-a","kind":"spark-connect","name":"spark","phase":"Ready",
                         "spec":{"requireToken":true},
                         "endpoints":{"internal":"sc://spark.team-a.svc:15443/;use_ssl=true"}}""", T0),
                "mlflow", event("instance.ready", """
                        {"namespace":"team-a","kind":"mlflow","name":"mlflow","phase":"Ready",
                         "endpoints":{"internal":"http://mlflow.team-a.svc:5000"}}""", T0));
        Bindings bindings = KnownInstance.bindings(new LakehouseRefs("cat", "trino", "spark", "mlflow"),
                ref -> Optional.ofNullable(known.get(ref.kind())));
        assertThat(bindings).isEqualTo(new Bindings(
                new Bindings.Catalog("cat", "cat-root-principal"),
                new Bindings.Trino("trino", "trino.team-a.svc:8443"),
                new Bindings.SparkConnect("spark", "sc://spark.team-a.svc:15443/;use_ssl=true", "spark-platform",
                        "spark-tls"),
                new Bindings.Mlflow("mlflow", "http://mlflow.team-a.svc:5000")));
    }

    @Test
    void aDeletedInstanceBindsNothingAndARecreatedOneBindsAgain() {
        String data = """
                {"namespace":"team-a","kind":"mlflow","name":"mlflow","phase":"Ready",
                 "endpoints":{"internal":"http://mlflow.team-a.svc:5000"}}""";
        KnownInstance deleted = event("instance.deleted", data, T0.plusSeconds(120));
        KnownInstance again = event("instance.requested", data, T0.plusSeconds(180));
        assertThat(deleted.deleting()).isTrue();
        assertThat(deleted.phase()).isEqualTo("Deleted");
        assertThat(KnownInstance.appears("instance.requested")).isTrue();
        assertThat(KnownInstance.appears("instance.ready")).isFalse();
        LakehouseRefs refs = new LakehouseRefs(null, null, null, "mlflow");
        assertThat(KnownInstance.bindings(refs, ref -> Optional.of(deleted))).isEqualTo(Bindings.NONE);
        assertThat(KnownInstance.bindings(refs, ref -> Optional.of(again)).mlflow().trackingUri())
                .isEqualTo("http://mlflow.team-a.svc:5000");
    }

    @Test
    void anEventWithoutAnEndpointSaysNone() {
        KnownInstance ready = event("instance.ready", """
                {"namespace":"team-a","kind":"trino","name":"trino","phase":"Ready"}""", T0);
        assertThat(ready.internalEndpoint()).isNull();
        assertThat(ready.changedAt()).isEqualTo(T0);
    }
}
