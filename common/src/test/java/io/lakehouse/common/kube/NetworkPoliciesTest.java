package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NetworkPoliciesTest {

    private static final IngressPeer GATEWAY = IngressPeer.of("ingress-nginx", "app.kubernetes.io/name=ingress-nginx");

    private static NetworkPolicy policy(List<Integer> namespacePorts, List<Integer> publicPorts) {
        return NetworkPolicies.of(new ObjectMetaBuilder().withName("sql").withNamespace("team-a").build(),
                NetworkPolicies.instancePods("trino", "sql"), namespacePorts, GATEWAY, publicPorts);
    }

    @Test
    void theInstancesPodsAcceptTheNamespaceOnItsPortsAndTheGatewayOnItsPublicPorts() {
        NetworkPolicy policy = policy(List.of(8443, 8080), List.of(8443));
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsExactlyInAnyOrderEntriesOf(
                Map.of("app.kubernetes.io/instance", "sql", "lakehouse.io/kind", "trino"));
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        assertThat(policy.getSpec().getEgress()).isNullOrEmpty();
        var rules = policy.getSpec().getIngress();
        assertThat(rules).hasSize(2);
        assertThat(rules.get(0).getFrom()).singleElement().satisfies(p -> {
            assertThat(p.getNamespaceSelector()).isNull();
            assertThat(p.getPodSelector().getMatchLabels()).isNullOrEmpty();
        });
        assertThat(ports(rules.get(0).getPorts())).containsExactly(8080, 8443);
        assertThat(rules.get(1).getFrom()).singleElement().satisfies(p -> {
            assertThat(p.getNamespaceSelector().getMatchLabels())
                    .containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", "ingress-nginx"));
            assertThat(p.getPodSelector().getMatchLabels())
                    .containsExactlyEntriesOf(Map.of("app.kubernetes.io/name", "ingress-nginx"));
        });
        assertThat(ports(rules.get(1).getPorts())).containsExactly(8443);
    }

    @Test
    void withoutAPublicRouteTheGatewayIsNotLetIn() {
        assertThat(policy(List.of(15443), List.of()).getSpec().getIngress()).hasSize(1);
    }

    @Test
    void podLabelsAreParsedFromKeyValuePairs() {
        assertThat(IngressPeer.of("gw", " a=1, b/c=2 ,").podLabels()).containsExactlyEntriesOf(
                new java.util.TreeMap<>(Map.of("a", "1", "b/c", "2")));
        assertThat(IngressPeer.of("gw", "").podLabels()).isEmpty();
        assertThatThrownBy(() -> IngressPeer.of("gw", "novalue")).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Integer> ports(List<NetworkPolicyPort> ports) {
        return ports.stream().map(p -> p.getPort().getIntVal()).toList();
    }
}
