package io.lakehouse.common.instances;

import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import java.util.List;

/**
 * What the shared builders ({@link InstanceObjects}) and the framework need to know about the
 * cluster, besides the instance. A service's own context record (images, service settings)
 * implements it and is what its kinds receive.
 */
public interface InstanceContext {

    /** {@code app.kubernetes.io/managed-by} of every object: the service's name. */
    String managedBy();

    /** Wildcard domain of the public hosts. */
    String domain();

    String ingressClass();

    /** The cluster's wildcard certificate Secret, or null. */
    String tlsSecret();

    /** The gateway's forward-auth check (access-service {@code /api/v1/authz}). */
    String forwardAuthUrl();

    /** Where the gateway sends a caller without a session. */
    String signInUrl();

    /** The registry Secret of every namespace, or null. */
    String imagePullSecret();

    /** Whether pods that talk S3 compute checksums only when the operation requires one (see ClusterSettings). */
    default boolean s3ChecksumWhenRequired() {
        return false;
    }

    /**
     * The PEM certificates of the cluster's private CA bundle (see ClusterSettings, {@link CaBundle}),
     * each checked; empty when the cluster has none.
     */
    default List<String> caCertificates() {
        return List.of();
    }

    /** The ingress controller's pods, allowed by the instances' NetworkPolicies. */
    IngressPeer ingressPeer();

    /** {@code <name>-<namespace>.<domain>}: the public host of an instance. */
    default String publicHost(String name, String namespace) {
        return name + "-" + namespace + "." + domain();
    }
}
