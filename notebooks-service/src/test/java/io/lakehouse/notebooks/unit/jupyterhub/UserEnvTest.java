package io.lakehouse.notebooks.unit.jupyterhub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubSpec;
import io.lakehouse.notebooks.kinds.jupyterhub.UserEnv;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The variables every user server gets, per reference set, and none for what is unset. */
class UserEnvTest {

    private static final JupyterHubSpec NO_BUCKET = HubFixtures.defaults().spec();
    private static final Bindings ALL = HubFixtures.wiredBindings();

    @Test
    void eachReferenceGivesExactlyItsVariables() {
        Map<String, Map<String, String>> byReference = new LinkedHashMap<>();
        byReference.put("none", env(NO_BUCKET, Bindings.NONE));
        byReference.put("catalog", env(NO_BUCKET, new Bindings(ALL.catalog(), null, null, null)));
        byReference.put("trino", env(NO_BUCKET, new Bindings(null, ALL.trino(), null, null)));
        byReference.put("spark-connect", env(NO_BUCKET, new Bindings(null, null,
                new Bindings.SparkConnect("spark", "sc://spark.team-a.svc:15002", null, null), null)));
        byReference.put("spark-connect with token", env(NO_BUCKET, new Bindings(null, null, ALL.sparkConnect(), null)));
        byReference.put("mlflow", env(NO_BUCKET, new Bindings(null, null, null, ALL.mlflow())));
        byReference.put("bucket", env(HubFixtures.wired().spec(), Bindings.NONE));

        Map<String, Map<String, String>> expected = new LinkedHashMap<>();
        expected.put("none", Map.of());
        expected.put("catalog", Map.of(
                "POLARIS_URI", "secret lakehouse-cat-root-principal/catalogUri",
                "POLARIS_WAREHOUSE", "secret lakehouse-cat-root-principal/catalogName",
                "POLARIS_CLIENT_ID", "secret lakehouse-cat-root-principal/clientId",
                "POLARIS_CLIENT_SECRET", "secret lakehouse-cat-root-principal/clientSecret",
                "POLARIS_CREDENTIAL", "$(POLARIS_CLIENT_ID):$(POLARIS_CLIENT_SECRET)",
                "POLARIS_SCOPE", "PRINCIPAL_ROLE:ALL"));
        expected.put("trino", Map.of("TRINO_HOST", "trino.team-a.svc:8443"));
        expected.put("spark-connect", Map.of("SPARK_REMOTE", "sc://spark.team-a.svc:15002"));
        expected.put("spark-connect with token", Map.of(
                "SPARK_REMOTE", "sc://spark.team-a.svc:15443/;use_ssl=true",
                "SPARK_CONNECT_AUTHENTICATE_TOKEN", "secret spark-platform/token",
                "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", "/etc/lakehouse/spark-connect/ca.crt"));
        expected.put("mlflow", Map.of("MLFLOW_TRACKING_URI", "http://mlflow.team-a.svc:5000"));
        expected.put("bucket", Map.of(
                "AWS_ENDPOINT_URL", "http://minio.team-a.svc:9000",
                "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", "secret team-a-warehouse/AWS_ACCESS_KEY_ID",
                "AWS_SECRET_ACCESS_KEY", "secret team-a-warehouse/AWS_SECRET_ACCESS_KEY"));
        assertThat(byReference).isEqualTo(expected);
    }

    @Test
    void aComposedValueComesAfterTheVariablesItReads() {
        List<String> names = UserEnv.of(NO_BUCKET, ALL).stream().map(EnvVar::getName).toList();
        assertThat(names.indexOf("POLARIS_CREDENTIAL")).isGreaterThan(names.indexOf("POLARIS_CLIENT_ID"))
                .isGreaterThan(names.indexOf("POLARIS_CLIENT_SECRET"));
    }

    @Test
    void theSparkConnectCaIsMountedOnlyWithTls() {
        assertThat(UserEnv.volumes(ALL)).singleElement()
                .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("spark-tls"));
        assertThat(UserEnv.mounts(ALL)).singleElement()
                .satisfies(m -> assertThat(m.getMountPath()).isEqualTo(UserEnv.SPARK_CA_DIR));
        assertThat(UserEnv.volumes(Bindings.NONE)).isEmpty();
    }

    /** name → value, or "secret NAME/KEY" for a reference. */
    private static Map<String, String> env(JupyterHubSpec spec, Bindings bindings) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar e : UserEnv.of(spec, bindings)) {
            env.put(e.getName(), e.getValueFrom() == null ? e.getValue()
                    : "secret " + e.getValueFrom().getSecretKeyRef().getName() + "/"
                            + e.getValueFrom().getSecretKeyRef().getKey());
        }
        return env;
    }
}
