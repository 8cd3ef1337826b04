package io.lakehouse.engines.unit.mlflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.ObjectRef;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.testing.GoldenYaml;
import io.lakehouse.engines.kinds.mlflow.MlflowKind;
import io.lakehouse.engines.kinds.mlflow.MlflowSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the generic service reads from the kind, and the server's wiring that matters most. */
class MlflowKindTest {

    private static final MlflowKind KIND = MlflowFixtures.KIND;
    private static final EngineContext LOCAL = EngineFixtures.context();
    private static final EngineContext PRODUCTION = EngineFixtures.productionContext();

    @Test
    void theKindIsRegisteredAsMlflowWithoutGeneratedSecretsOrOidcClient() {
        assertThat(KIND.kind()).isEqualTo("mlflow");
        assertThat(KIND.specType()).isEqualTo(MlflowSpec.class);
        assertThat(KIND.usesOidcClient()).as("the gateway's login protects it").isFalse();
        assertThat(KIND.generatedSecrets(MlflowFixtures.defaults(), LOCAL, EngineFixtures.owner())).isEmpty();
        assertThat(KIND.secrets(MlflowFixtures.defaults())).isEmpty();
    }

    @Test
    void theInternalEndpointIsTheTrackingUriAndThePublicOneIsBehindTheLogin() {
        assertThat(KIND.endpoints(MlflowFixtures.defaults(), LOCAL)).isEqualTo(Map.of(
                "internal", "http://tracking.team-a.svc:5000",
                "public", "https://tracking-team-a.lakehouse.localtest.me/"));
    }

    @Test
    void theDatabaseThenTheServerMakeTheInstanceRunning() {
        assertThat(KIND.parts(MlflowFixtures.defaults())).containsExactly(
                Part.of(ResourceKind.CNPG_CLUSTER, "tracking-db", "DatabaseReady", "the PostgreSQL database"),
                Part.of(ResourceKind.DEPLOYMENT, "tracking", "ServerReady", "the MLflow server"));
        assertThat(KIND.leftovers(MlflowFixtures.defaults())).containsExactly(
                new ObjectRef(ResourceKind.SECRET, "tracking-db-app"));
    }

    @Test
    void theServerAcceptsTheNamespacesNamesAndThePublicHost() {
        List<String> args = container(MlflowFixtures.production(), PRODUCTION).getArgs();

        assertThat(args.get(args.indexOf("--allowed-hosts") + 1)).isEqualTo("tracking,tracking:5000,tracking.team-a,"
                + "tracking.team-a:5000,tracking.team-a.svc*,tracking-team-a.data.example.org");
        assertThat(args).containsSubsequence("--artifacts-destination", "s3://warehouse/experiments/team-a")
                .containsSubsequence("--workers", "4").contains("--serve-artifacts")
                .doesNotContain("--gunicorn-opts", "--waitress-opts");
    }

    @Test
    void theBackendStoreAndTheKeysComeFromSecretsOnly() {
        Container server = container(MlflowFixtures.production(), PRODUCTION);

        assertThat(server.getArgs()).noneSatisfy(a -> assertThat(a).startsWith("postgresql"));
        assertThat(server.getEnv()).filteredOn(e -> e.getValueFrom() != null)
                .extracting(e -> e.getName() + "=" + e.getValueFrom().getSecretKeyRef().getName() + "/"
                        + e.getValueFrom().getSecretKeyRef().getKey())
                .containsExactly("MLFLOW_BACKEND_STORE_URI=tracking-db-app/uri",
                        "AWS_ACCESS_KEY_ID=tracking-s3/AWS_ACCESS_KEY_ID",
                        "AWS_SECRET_ACCESS_KEY=tracking-s3/AWS_SECRET_ACCESS_KEY");
        assertThat(server.getEnv()).extracting(EnvVar::getName).contains("MLFLOW_S3_ENDPOINT_URL");
    }

    @Test
    void theIngressAsksTheAccessServiceAndSendsStrangersToTheSignIn() {
        Ingress ingress = object(MlflowFixtures.production(), PRODUCTION, Ingress.class);

        assertThat(ingress.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "nginx.ingress.kubernetes.io/auth-url",
                "http://access-service.platform.svc:8085/api/v1/authz?host=tracking-team-a.data.example.org",
                "nginx.ingress.kubernetes.io/auth-signin",
                "https://login.data.example.org/oauth2/start?rd=https://$host$escaped_request_uri"));
        assertThat(ingress.getSpec().getTls()).singleElement()
                .satisfies(t -> assertThat(t.getSecretName()).isEqualTo("wildcard-tls"));
        assertThat(object(MlflowFixtures.defaults(), LOCAL, Ingress.class).getSpec().getTls()).isEmpty();
    }

    @Test
    void theServerHasEqualRequestsAndLimitsAndTheRestrictedProfile() {
        Deployment deployment = object(MlflowFixtures.production(), PRODUCTION, Deployment.class);
        Container server = container(MlflowFixtures.production(), PRODUCTION);

        assertThat(deployment.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(server.getResources().getLimits()).isEqualTo(server.getResources().getRequests());
        assertThat(server.getResources().getLimits().get("memory").toString()).isEqualTo("4Gi");
        assertThat(server.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    }

    /** The UI's writes come from the public host: MLflow accepts that origin (and no other). */
    @Test
    void theServerAcceptsCrossOriginWritesFromThePublicHostOnly() {
        List<String> args = container(MlflowFixtures.production(), PRODUCTION).getArgs();
        int i = args.indexOf("--cors-allowed-origins");
        assertThat(args.get(i + 1)).isEqualTo("https://" + PRODUCTION.publicHost(MlflowFixtures.production().name(),
                MlflowFixtures.production().namespace()));
    }

    /** Whatever the worker count, all connection pools together stay within the database's budget. */
    @Test
    void theWorkersConnectionPoolsFitTheDatabase() {
        for (int workers = MlflowKind.MIN_WORKERS; workers <= MlflowKind.MAX_WORKERS; workers++) {
            Instance inst = MlflowFixtures.instance(new MlflowSpec(EngineFixtures.bucket(), null, workers, null, null));
            Map<String, EnvVar> env = envOf(container(inst, LOCAL));
            int pool = Integer.parseInt(env.get("MLFLOW_SQLALCHEMYSTORE_POOL_SIZE").getValue());
            int overflow = Integer.parseInt(env.get("MLFLOW_SQLALCHEMYSTORE_MAX_OVERFLOW").getValue());
            assertThat(pool).as("workers %d", workers).isPositive();
            assertThat(overflow).as("workers %d", workers).isNotNegative();
            // Two engines per worker (tracking and model registry stores).
            assertThat(workers * 2 * (pool + overflow)).as("workers %d", workers).isLessThanOrEqualTo(80);
        }
    }

    @Test
    void telemetryIsOffAndTheRootFilesystemReadOnly() {
        Container server = container(MlflowFixtures.production(), PRODUCTION);
        Map<String, EnvVar> env = envOf(server);
        assertThat(env.get("MLFLOW_DISABLE_TELEMETRY").getValue()).isEqualTo("true");
        assertThat(env.get("DO_NOT_TRACK").getValue()).isEqualTo("true");
        assertThat(server.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(server.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    }

    private static Map<String, EnvVar> envOf(Container c) {
        return c.getEnv().stream().collect(java.util.stream.Collectors.toMap(EnvVar::getName, e -> e));
    }

    /** MLflow migrates its database at start: it starts once the CloudNativePG primary answers. */
    @Test
    void theServerWaitsForThePrimaryOfItsDatabase() {
        Deployment deployment = object(MlflowFixtures.production(), PRODUCTION, Deployment.class);
        // First: the CA bundle's init container (production has one) runs after it.
        assertThat(deployment.getSpec().getTemplate().getSpec().getInitContainers()).first()
                .satisfies(wait -> {
                    assertThat(wait.getImage()).isEqualTo(PRODUCTION.mlflowImage());
                    assertThat(wait.getCommand().get(0)).isEqualTo("python3");
                    assertThat(String.join(" ", wait.getCommand())).contains("('" + deployment.getMetadata().getName()
                            + "-db-rw', 5432)");
                });
    }

    @Test
    void noTypedKeyLeavesASecret() {
        // The builders never read typed keys, even if a spec still carried them.
        Instance unstripped = MlflowFixtures.instance(
                new MlflowSpec(MlflowFixtures.inlineKeys(), null, null, null, null));
        ObjectNode described = new ObjectMapper().createObjectNode();
        KIND.describe(unstripped, PRODUCTION, described);

        String everything = String.join("\n", GoldenYaml.trees(KIND.objects(unstripped, PRODUCTION,
                EngineFixtures.owner())).stream().map(GoldenYaml::yaml).toList()) + described;

        assertThat(everything).doesNotContain(MlflowFixtures.ACCESS_KEY, MlflowFixtures.SECRET_KEY);
    }

    @Test
    void aRequestSpecIsReadFromJsonAndUnknownFieldsAreRefused() throws Exception {
        ObjectMapper json = new ObjectMapper();
        MlflowSpec spec = json.readValue("""
                {"storage": {"bucket": "b", "endpoint": "http://s3", "region": "r", "credentialsSecret": "k"},
                 "artifactsPrefix": "runs", "workers": 3, "resources": {"memory": "3Gi"},
                 "database": {"storageSize": "5Gi"}}""", MlflowSpec.class);

        assertThat(spec.artifactsPrefix()).isEqualTo("runs");
        assertThat(spec.resources().memory()).isEqualTo("3Gi");
        assertThat(spec.database().storageSize()).isEqualTo("5Gi");
        assertThat(json.writeValueAsString(new MlflowSpec(null, "runs", null, null, null)))
                .isEqualTo("{\"artifactsPrefix\":\"runs\"}");
        assertThatThrownBy(() -> json.readValue("{\"artifacts\": {}}", MlflowSpec.class))
                .isInstanceOf(UnrecognizedPropertyException.class);
    }

    private static Container container(Instance inst, EngineContext ctx) {
        return object(inst, ctx, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static <T extends HasMetadata> T object(Instance inst, EngineContext ctx, Class<T> type) {
        return KIND.objects(inst, ctx, EngineFixtures.owner()).stream().filter(type::isInstance).map(type::cast)
                .findFirst().orElseThrow();
    }
}
