package io.lakehouse.catalog.reconcile;

import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.instances.InstanceContext;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import java.util.List;

/**
 * Everything besides the instance that the object builders depend on, as plain values so the
 * builders stay pure functions.
 */
public record CatalogContext(
        String managedBy,
        String domain,
        String ingressClass,
        String tlsSecret,
        String storageClass,
        String polarisImage,
        String adminToolImage,
        String curlImage,
        String postgresImage,
        String imagePullSecret,
        IngressPeer ingressPeer,
        boolean s3ChecksumWhenRequired,
        List<String> caCertificates) implements InstanceContext {

    public static CatalogContext of(String managedBy, ClusterSettings cluster) {
        return new CatalogContext(managedBy, cluster.domain(), cluster.ingressClass(),
                cluster.tlsSecret().orElse(null), cluster.storageClass().orElse(null),
                cluster.images().polaris(), cluster.images().polarisAdminTool(), cluster.images().curl(),
                cluster.images().postgres().orElse(null), cluster.imagePullSecret().orElse(null),
                IngressPeer.of(cluster.ingressController().namespace(), cluster.ingressController().podLabels()),
                cluster.s3ChecksumWhenRequired(), cluster.caCertificates());
    }

    /** None: Polaris checks the callers' tokens itself, its route has no forward auth. */
    @Override
    public String forwardAuthUrl() {
        return null;
    }

    /** None: see {@link #forwardAuthUrl}. */
    @Override
    public String signInUrl() {
        return null;
    }
}
