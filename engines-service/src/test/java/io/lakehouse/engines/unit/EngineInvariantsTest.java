package io.lakehouse.engines.unit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.domain.EngineKinds;
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
        return EngineKinds.ALL.all().stream().flatMap(k -> Stream.of(
                Arguments.of(k.kind(), "local", EngineFixtures.context()),
                Arguments.of(k.kind(), "production", EngineFixtures.productionContext())));
    }

    private static Instance instance(InstanceKind<EngineContext> kind) throws Exception {
        InstanceSpec spec = kind.withDefaults(SpecPatch.read(kind, JSON.readTree(REQUESTS.get(kind.kind()))),
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
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of(name);
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

    /**
     * lakehouse.cluster.s3-checksum-when-required: the main container of every kind (each talks S3: the
     * warehouse, the artifacts, the flows' processors) computes checksums only when required; nothing
     * changes when the setting is off.
     */
    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void theS3ChecksumSettingReachesEveryMainContainer(String name, String c, EngineContext ctx) throws Exception {
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of(name);
        for (PodSpec pod : pods(kind.objects(instance(kind), ctx, EngineFixtures.owner()))) {
            Map<String, String> env = new java.util.HashMap<>();
            pod.getContainers().get(0).getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
            if (ctx.s3ChecksumWhenRequired()) {
                assertThat(env).as(name).containsEntry("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
                        .containsEntry("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required");
            } else {
                assertThat(env).as(name).doesNotContainKeys("AWS_REQUEST_CHECKSUM_CALCULATION",
                        "AWS_RESPONSE_CHECKSUM_VALIDATION");
            }
        }
    }

    /** lakehouse.cluster.image-pull-secret reaches every pod of every kind, and only when set. */
    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void everyPodPullsWithTheClusterPullSecret(String name, String c, EngineContext ctx) throws Exception {
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of(name);
        for (PodSpec pod : pods(kind.objects(instance(kind), ctx, EngineFixtures.owner()))) {
            assertThat(pod.getImagePullSecrets()).as(name).extracting(r -> r.getName())
                    .isEqualTo(ctx.imagePullSecret() == null ? List.of() : List.of(ctx.imagePullSecret()));
        }
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void everyObjectIsLabelledOwnedAndInTheNamespace(String name, String c, EngineContext ctx) throws Exception {
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of(name);
        Instance inst = instance(kind);
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

    /**
     * One NetworkPolicy per instance selecting every pod it runs: the namespace's pods reach only the
     * ports its Services serve, the ingress controller only the ports its Ingress routes to.
     */
    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void oneNetworkPolicyLetsInTheNamespaceAndTheGatewayOnly(String name, String c, EngineContext ctx)
            throws Exception {
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of(name);
        List<HasMetadata> objects = kind.objects(instance(kind), ctx, EngineFixtures.owner());
        List<NetworkPolicy> policies = objects.stream().filter(NetworkPolicy.class::isInstance)
                .map(NetworkPolicy.class::cast).toList();
        assertThat(policies).as(name).hasSize(1);
        NetworkPolicy policy = policies.get(0);
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        Map<String, String> selector = policy.getSpec().getPodSelector().getMatchLabels();
        for (HasMetadata o : objects) {
            Map<String, String> podLabels = o instanceof Deployment d ? d.getSpec().getTemplate().getMetadata().getLabels()
                    : o instanceof StatefulSet s ? s.getSpec().getTemplate().getMetadata().getLabels() : null;
            if (podLabels != null) {
                assertThat(podLabels).as("%s pods of %s are selected", name, o.getMetadata().getName())
                        .containsAllEntriesOf(selector);
            }
        }
        var namespaceRule = policy.getSpec().getIngress().get(0);
        assertThat(namespaceRule.getFrom()).singleElement().satisfies(peer -> {
            assertThat(peer.getNamespaceSelector()).isNull();
            assertThat(peer.getPodSelector().getMatchLabels()).isNullOrEmpty();
        });
        assertThat(ports(namespaceRule.getPorts())).as(name).isSubsetOf(servicePorts(objects)).isNotEmpty()
                .doesNotContain(4040);
        List<Integer> ingressPorts = objects.stream().filter(Ingress.class::isInstance).map(Ingress.class::cast)
                .flatMap(i -> i.getSpec().getRules().stream()).flatMap(r -> r.getHttp().getPaths().stream())
                .map(p -> p.getBackend().getService().getPort().getNumber()).toList();
        if (ingressPorts.isEmpty()) {
            assertThat(policy.getSpec().getIngress()).as("%s has no public route", name).hasSize(1);
        } else {
            var gatewayRule = policy.getSpec().getIngress().get(1);
            assertThat(gatewayRule.getFrom()).singleElement().satisfies(peer -> {
                assertThat(peer.getNamespaceSelector().getMatchLabels())
                        .containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", ctx.ingressPeer().namespace()));
                assertThat(peer.getPodSelector().getMatchLabels()).isEqualTo(ctx.ingressPeer().podLabels());
            });
            assertThat(ports(gatewayRule.getPorts())).containsExactlyInAnyOrderElementsOf(ingressPorts);
        }
    }

    /** Grants hold on every public route: the gateway asks access-service about this instance's host. */
    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("kinds")
    void everyPublicRouteAsksForwardAuthWithTheInstancesHost(String name, String c, EngineContext ctx)
            throws Exception {
        InstanceKind<EngineContext> kind = EngineKinds.ALL.of(name);
        for (HasMetadata o : kind.objects(instance(kind), ctx, EngineFixtures.owner())) {
            if (o instanceof Ingress ingress) {
                String host = ingress.getSpec().getRules().get(0).getHost();
                assertThat(ingress.getMetadata().getAnnotations()).as(name)
                        .containsEntry("nginx.ingress.kubernetes.io/auth-url", ctx.forwardAuthUrl() + "?host=" + host)
                        .containsEntry("nginx.ingress.kubernetes.io/auth-signin",
                                ctx.signInUrl() + "?rd=https://$host$escaped_request_uri");
            }
        }
    }

    private static List<Integer> ports(List<NetworkPolicyPort> ports) {
        return ports.stream().map(p -> p.getPort().getIntVal()).toList();
    }

    private static List<Integer> servicePorts(List<HasMetadata> objects) {
        return objects.stream().filter(Service.class::isInstance).map(Service.class::cast)
                .flatMap(s -> s.getSpec().getPorts().stream()).map(p -> p.getPort()).toList();
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
