package io.lakehouse.engines.reconcile;

import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.instances.InstanceContext;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import io.lakehouse.engines.config.EngineSettings;
import java.util.List;

/**
 * Everything besides the instance that the engine kinds' builders depend on, as plain values so the
 * builders stay pure functions.
 */
public record EngineContext(
        String managedBy,
        String domain,
        String ingressClass,
        String tlsSecret,
        String storageClass,
        String postgresImage,
        String oidcIssuer,
        String forwardAuthUrl,
        String signInUrl,
        String imagePullSecret,
        String trinoImage,
        String sparkConnectImage,
        String mlflowImage,
        String nifiImage,
        String tlsProxyImage,
        String sparkPackages,
        IngressPeer ingressPeer,
        String apiAudience,
        boolean s3ChecksumWhenRequired,
        List<String> caCertificates) implements InstanceContext {

    /** @param apiAudience the audience of the platform's APIs ({@code quarkus.oidc.token.audience}) */
    public static EngineContext of(String managedBy, ClusterSettings cluster, EngineSettings engines,
            String apiAudience) {
        return new EngineContext(managedBy, cluster.domain(), cluster.ingressClass(),
                cluster.tlsSecret().orElse(null), cluster.storageClass().orElse(null),
                cluster.images().postgres().orElse(null), cluster.oidcIssuer(), engines.forwardAuthUrl(),
                engines.signInUrl(), cluster.imagePullSecret().orElse(null), engines.images().trino(),
                engines.images().sparkConnect(), engines.images().mlflow(), engines.images().nifi(),
                engines.images().tlsProxy(), engines.sparkPackages().orElse(""),
                IngressPeer.of(cluster.ingressController().namespace(), cluster.ingressController().podLabels()),
                apiAudience, cluster.s3ChecksumWhenRequired(), cluster.caCertificates());
    }
}
