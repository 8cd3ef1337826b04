package io.lakehouse.engines.unit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.PodSecrets;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.kube.SecretData;
import io.lakehouse.engines.domain.EngineKinds;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pod-template digest of the Secrets a workload uses: it follows their data and shows none of it. */
class PodSecretsTest {

    private static final String VALUE = "s3-secret-value-that-must-not-leak";

    private static Map<String, Secret> secrets(String s3Secret) {
        Map<String, Secret> secrets = new HashMap<>();
        for (String name : List.of("lakehouse-cat-root-principal", "sql-internal", "sql-oidc", "sql-tls")) {
            secrets.put(name, secret(name, Map.of("k", name + "-value")));
        }
        secrets.put("warehouse-bucket", secret("warehouse-bucket", Map.of("AWS_ACCESS_KEY_ID", "AKIA1",
                "AWS_SECRET_ACCESS_KEY", s3Secret)));
        return secrets;
    }

    private static Secret secret(String name, Map<String, String> values) {
        return new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .withData(SecretData.encode(values)).build();
    }

    private static List<HasMetadata> trino() throws Exception {
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of("trino");
        Instance inst = EngineFixtures.instance("trino", "sql", kind.withDefaults(
                SpecPatch.read(kind, new ObjectMapper().readTree("{\"catalog\":\"lakehouse-cat\"}")),
                Optional.of(EngineFixtures.catalog())));
        return kind.objects(inst, EngineFixtures.context(), EngineFixtures.owner());
    }

    private static String digest(HasMetadata workload, Map<String, Secret> secrets) {
        HasMetadata annotated = PodSecrets.withDigest(workload, n -> Optional.ofNullable(secrets.get(n)));
        return ((Deployment) annotated).getSpec().getTemplate().getMetadata().getAnnotations().get(PodSecrets.DIGEST);
    }

    @Test
    void everySecretThePodsUseIsFound() throws Exception {
        List<HasMetadata> objects = trino();
        Deployment coordinator = (Deployment) objects.get(3);
        Deployment workers = (Deployment) objects.get(4);
        assertThat(PodSecrets.referenced(coordinator.getSpec().getTemplate().getSpec())).containsExactly(
                "lakehouse-cat-root-principal", "sql-internal", "sql-oidc", "sql-tls", "warehouse-bucket");
        assertThat(PodSecrets.referenced(workers.getSpec().getTemplate().getSpec())).containsExactly(
                "lakehouse-cat-root-principal", "sql-internal", "warehouse-bucket");
    }

    @Test
    void changedSecretDataChangesThePodTemplateAndNoValueAppears() throws Exception {
        Deployment coordinator = (Deployment) trino().get(3);
        String before = digest(coordinator, secrets("old-" + VALUE));
        assertThat(before).matches("[0-9a-f]{64}").isEqualTo(digest(coordinator, secrets("old-" + VALUE)));
        String after = digest(coordinator, secrets(VALUE));
        assertThat(after).isNotEqualTo(before);

        Map<String, Secret> missing = secrets(VALUE);
        missing.remove("sql-oidc");
        assertThat(digest(coordinator, missing)).as("a Secret that appears later rolls the pods too")
                .isNotEqualTo(after);

        String yaml = Serialization.asYaml(PodSecrets.withDigest(coordinator, n -> Optional.ofNullable(secrets(VALUE).get(n))));
        assertThat(yaml).doesNotContain(VALUE, SecretData.encode(Map.of("x", VALUE)).get("x"), "-value");
    }

    @Test
    void everyWorkloadOfEveryKindGetsTheDigest() throws Exception {
        for (InstanceKind<EngineContext> kind : EngineKinds.ALL.all()) {
            for (HasMetadata o : kind.objects(EngineFixtures.instance(kind.kind(), "x", kind.withDefaults(
                    SpecPatch.read(kind, new ObjectMapper().readTree(kind.kind().equals("mlflow")
                            ? "{\"storage\":{\"bucket\":\"b\",\"endpoint\":\"http://m:9000\",\"region\":\"r\","
                                    + "\"credentialsSecret\":\"b\"}}"
                            : kind.kind().equals("nifi") ? "{}" : "{\"catalog\":\"lakehouse-cat\"}")),
                    Optional.of(EngineFixtures.catalog()))), EngineFixtures.context(), EngineFixtures.owner())) {
                HasMetadata annotated = PodSecrets.withDigest(o, n -> Optional.empty());
                if (annotated instanceof Deployment d) {
                    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations()).containsKey(PodSecrets.DIGEST);
                } else if (annotated instanceof StatefulSet s) {
                    assertThat(s.getSpec().getTemplate().getMetadata().getAnnotations()).containsKey(PodSecrets.DIGEST);
                }
            }
        }
    }
}
