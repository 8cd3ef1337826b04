package io.lakehouse.engines.unit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.domain.EngineInstance;
import io.lakehouse.engines.domain.EngineKind;
import io.lakehouse.engines.domain.EngineKinds;
import io.lakehouse.engines.domain.EngineSpec;
import io.lakehouse.engines.domain.SpecPatch;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every kind must hold, whatever its builders: every container with requests and limits, no
 * privilege escalation, secret values only by reference, every object labelled and owned.
 */
class EngineInvariantsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The smallest valid request of each kind. */
    private static final Map<String, String> REQUESTS = Map.of(
            "trino", "{\"catalog\":\"lakehouse-cat\"}",
            "spark-connect", "{\"catalog\":\"lakehouse-cat\",\"requireToken\":true}",
            "mlflow", "{\"storage\":{\"bucket\":\"artifacts\",\"endpoint\":\"http://minio:9000\","
                    + "\"region\":\"us-east-1\",\"credentialsSecret\":\"artifacts-bucket\"}}",
            "nifi", "{}");

    static Stream<Arguments> kinds() {
        return EngineKinds.all().stream().flatMap(k -> Stream.of(
                Arguments.of(k.kind(), "local", EngineFixtures.context()),
                Arguments.of(k.kind(), "production", EngineFixtures.productionContext())));
    }

    private static EngineInstance instance(EngineKind kind) throws Exception {
        EngineSpec spec = kind.withDefaults(SpecPatch.read(kind, JSON.readTree(REQUESTS.get(kind.kind()))),
                Optional.of(EngineFixtures.catalog()));
        Violations v = new Violations();
        kind.checkCreate(v, "inst", EngineFixtures.NAMESPACE, spec);
        assertThat(v.errors()).as("the fixture request of %s is valid", kind.kind()).isEmpty();
        return EngineFixtures.instance(kind.kind(), "inst", spec);
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void everyContainerHasRequestsAndLimitsAndNoPrivilegeEscalation(String name, String c, EngineContext ctx)
            throws Exception {
        EngineKind kind = EngineKinds.of(name);
        List<HasMetadata> objects = kind.objects(instance(kind), ctx, EngineFixtures.owner());
        List<PodSpec> pods = pods(objects);
        assertThat(pods).as("workloads of %s", name).isNotEmpty();
        for (PodSpec pod : pods) {
            assertThat(pod.getAutomountServiceAccountToken()).as("%s mounts no API token", name).isFalse();
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as("%s runs as non-root", name).isTrue();
            List<Container> containers = new ArrayList<>(pod.getContainers());
            if (pod.getInitContainers() != null) {
                containers.addAll(pod.getInitContainers());
            }
            for (Container container : containers) {
                String what = name + "/" + container.getName();
                assertThat(container.getResources().getLimits()).as(what).containsKeys("memory", "cpu");
                assertThat(container.getResources().getRequests()).as(what).containsKeys("memory", "cpu");
                assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).as(what).isFalse();
                assertThat(container.getSecurityContext().getCapabilities().getDrop()).as(what).contains("ALL");
                for (EnvVar env : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
                    boolean secretName = env.getName().matches(".*(SECRET|PASSWORD|TOKEN|KEY_ID|CREDENTIAL).*");
                    if (secretName && env.getValue() != null) {
                        assertThat(env.getValue()).as("%s %s is a reference, not a value", what, env.getName())
                                .matches(".*\\$\\(.*\\).*");
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void everyObjectIsLabelledOwnedAndInTheNamespace(String name, String c, EngineContext ctx) throws Exception {
        EngineKind kind = EngineKinds.of(name);
        EngineInstance inst = instance(kind);
        for (HasMetadata o : kind.objects(inst, ctx, EngineFixtures.owner())) {
            String what = name + " " + o.getKind() + " " + o.getMetadata().getName();
            assertThat(o.getMetadata().getNamespace()).as(what).isEqualTo(EngineFixtures.NAMESPACE);
            assertThat(o.getMetadata().getLabels()).as(what)
                    .containsEntry("app.kubernetes.io/instance", "inst")
                    .containsEntry("app.kubernetes.io/managed-by", "engines-service")
                    .containsEntry("lakehouse.io/kind", name)
                    .containsEntry("lakehouse.io/instance-uid", inst.uid().toString());
            if (o.getKind().equals("Cluster")) {
                // A database goes only with an explicit delete, never by garbage collection of the root.
                assertThat(o.getMetadata().getOwnerReferences()).as(what).isNullOrEmpty();
            } else {
                assertThat(o.getMetadata().getOwnerReferences()).as(what).containsExactly(EngineFixtures.owner());
            }
        }
    }

    private static List<PodSpec> pods(List<HasMetadata> objects) {
        List<PodSpec> pods = new ArrayList<>();
        for (HasMetadata o : objects) {
            if (o instanceof Deployment d) {
                pods.add(d.getSpec().getTemplate().getSpec());
            } else if (o instanceof StatefulSet s) {
                pods.add(s.getSpec().getTemplate().getSpec());
            }
        }
        return pods;
    }
}
