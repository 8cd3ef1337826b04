package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one NetworkPolicy of an instance: its pods accept connections only from pods of their own
 * namespace on the ports it serves there, and from the ingress controller's pods on the ports its
 * public routes use. Everything else (other namespaces, other ports such as a Spark UI) is dropped
 * by any CNI that enforces NetworkPolicies. Egress stays open: instances reach S3 and the issuer.
 */
public final class NetworkPolicies {

    /** Label every namespace carries (Kubernetes 1.21+), so a namespace is selected by name. */
    static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";

    private NetworkPolicies() {}

    /**
     * The gateway's pods: namespace and pod labels of the ingress controller.
     *
     * @param namespace the controller's namespace
     * @param podLabels labels of its pods; empty selects every pod of that namespace
     */
    public record IngressPeer(String namespace, Map<String, String> podLabels) {

        /** Parses {@code key=value,key=value} (blank: every pod of the namespace). */
        public static IngressPeer of(String namespace, String podLabels) {
            Map<String, String> labels = new TreeMap<>();
            for (String pair : podLabels.split(",")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("pod labels must be key=value pairs: " + podLabels);
                }
                labels.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
            return new IngressPeer(namespace, labels);
        }
    }

    /**
     * @param meta name, namespace, labels and owner of the policy
     * @param pods labels selecting every pod of the instance
     * @param namespacePorts ports the namespace's pods may reach
     * @param gateway the ingress controller
     * @param publicPorts ports the ingress controller may reach (empty: the instance has no public route)
     */
    public static NetworkPolicy of(ObjectMeta meta, Map<String, String> pods, List<Integer> namespacePorts,
            IngressPeer gateway, List<Integer> publicPorts) {
        List<NetworkPolicyIngressRule> rules = new ArrayList<>();
        rules.add(new NetworkPolicyIngressRuleBuilder()
                .addToFrom(new NetworkPolicyPeerBuilder().withPodSelector(new LabelSelector()).build())
                .withPorts(ports(namespacePorts))
                .build());
        if (!publicPorts.isEmpty()) {
            rules.add(new NetworkPolicyIngressRuleBuilder()
                    .addToFrom(new NetworkPolicyPeerBuilder()
                            .withNamespaceSelector(new LabelSelectorBuilder()
                                    .withMatchLabels(Map.of(NAMESPACE_NAME, gateway.namespace())).build())
                            .withPodSelector(new LabelSelectorBuilder().withMatchLabels(gateway.podLabels()).build())
                            .build())
                    .withPorts(ports(publicPorts))
                    .build());
        }
        return new NetworkPolicyBuilder()
                .withMetadata(meta)
                .withNewSpec()
                    .withNewPodSelector().withMatchLabels(pods).endPodSelector()
                    .withPolicyTypes("Ingress")
                    .withIngress(rules)
                .endSpec()
                .build();
    }

    /** Selects every pod of an instance, whatever its component. */
    public static Map<String, String> instancePods(String kind, String instance) {
        return new TreeMap<>(Map.of(Labels.INSTANCE, instance, Labels.INSTANCE_KIND, kind));
    }

    private static List<NetworkPolicyPort> ports(List<Integer> ports) {
        return ports.stream().distinct().sorted()
                .map(p -> new NetworkPolicyPortBuilder().withProtocol("TCP").withPort(new IntOrString(p)).build())
                .toList();
    }
}
