package io.lakehouse.notebooks.kinds.jupyterhub;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLSBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import io.lakehouse.common.kube.NetworkPolicies;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The public route and the NetworkPolicy of a hub. */
final class HubNetwork {

    static final String AUTH_URL = "nginx.ingress.kubernetes.io/auth-url";
    static final String AUTH_SIGNIN = "nginx.ingress.kubernetes.io/auth-signin";
    static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";

    private HubNetwork() {}

    /**
     * {@code https://<name>-<namespace>.<domain>/} to the proxy, behind the gateway's forward auth:
     * only callers holding a grant on the instance reach the hub's own sign-in.
     */
    static Ingress ingress(HubInstance inst, HubContext ctx, OwnerReference owner) {
        String host = ctx.publicHost(inst.name(), inst.namespace());
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(AUTH_URL, ctx.forwardAuthUrl() + "?host=" + host);
        // nginx variables, expanded by the controller per request: back to the page asked for.
        annotations.put(AUTH_SIGNIN, ctx.signInUrl() + "?rd=https://$host$escaped_request_uri");
        return new IngressBuilder()
                .withMetadata(HubMeta.meta(inst.name(), inst, ctx, HubNames.PROXY, owner))
                .editMetadata().withAnnotations(annotations).endMetadata()
                .withNewSpec()
                    .withIngressClassName(ctx.ingressClass())
                    .withTls(ctx.tlsSecret() == null ? List.of()
                            : List.of(new IngressTLSBuilder().withHosts(host).withSecretName(ctx.tlsSecret()).build()))
                    .addNewRule().withHost(host)
                        .withNewHttp()
                            .addNewPath().withPath("/").withPathType("Prefix")
                                .withNewBackend().withNewService().withName(inst.name())
                                    .withNewPort().withNumber(HubNames.PROXY_PORT).endPort()
                                .endService().endBackend()
                            .endPath()
                        .endHttp()
                    .endRule()
                .endSpec()
                .build();
    }

    /**
     * Hub, proxy and user pods accept: the gateway and the namespace's pods on the proxy; each other
     * on the hub API, the proxy API and the user servers' port. Nothing else reaches a user server
     * (it is only ever reached through the proxy). Egress stays open (S3, the issuer, bound instances).
     */
    static NetworkPolicy policy(HubInstance inst, HubContext ctx, OwnerReference owner) {
        Map<String, String> pods = NetworkPolicies.instancePods(HubInstance.KIND, inst.name());
        List<NetworkPolicyIngressRule> rules = List.of(
                rule(new LabelSelector(), null, List.of(HubNames.PROXY_PORT)),
                rule(new LabelSelectorBuilder().withMatchLabels(pods).build(), null,
                        List.of(HubNames.PROXY_API_PORT, HubNames.HUB_PORT, HubNames.USER_PORT)),
                rule(new LabelSelectorBuilder().withMatchLabels(ctx.ingressPeer().podLabels()).build(),
                        new LabelSelectorBuilder().withMatchLabels(Map.of(NAMESPACE_NAME, ctx.ingressPeer().namespace()))
                                .build(),
                        List.of(HubNames.PROXY_PORT)));
        return new NetworkPolicyBuilder()
                .withMetadata(HubMeta.meta(inst.name(), inst, ctx, "network", owner))
                .withNewSpec()
                    .withNewPodSelector().withMatchLabels(pods).endPodSelector()
                    .withPolicyTypes("Ingress")
                    .withIngress(rules)
                .endSpec()
                .build();
    }

    private static NetworkPolicyIngressRule rule(LabelSelector pods, LabelSelector namespaces, List<Integer> ports) {
        List<NetworkPolicyPort> policyPorts = ports.stream()
                .map(p -> new NetworkPolicyPortBuilder().withProtocol("TCP").withPort(new IntOrString(p)).build())
                .toList();
        return new NetworkPolicyIngressRuleBuilder()
                .addToFrom(new NetworkPolicyPeerBuilder().withPodSelector(pods).withNamespaceSelector(namespaces).build())
                .withPorts(policyPorts)
                .build();
    }
}
