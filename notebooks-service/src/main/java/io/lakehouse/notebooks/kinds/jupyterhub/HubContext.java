package io.lakehouse.notebooks.kinds.jupyterhub;

import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import java.util.List;

/**
 * Everything besides the instance the builders depend on, as plain values so they stay pure
 * functions. The service fills it from its cluster settings.
 *
 * @param managedBy the service's name, in {@code app.kubernetes.io/managed-by}
 * @param domain the cluster's public domain: hosts are {@code <name>-<namespace>.<domain>}
 * @param ingressClass the gateway's IngressClass
 * @param tlsSecret the wildcard certificate's Secret of public Ingresses, or null
 * @param storageClass the StorageClass of volumes (hub database, user volumes), or null for the default
 * @param forwardAuthUrl access-service's forward-auth address the gateway asks before each request
 * @param signInUrl where the gateway sends callers without a session
 * @param imagePullSecret the registry Secret of the cluster's images, or null
 * @param hubImage the hub image (JupyterHub, KubeSpawner, OAuthenticator, idle culler)
 * @param proxyImage the configurable-http-proxy image
 * @param hub requests = limits of the hub container
 * @param proxy requests = limits of the proxy container
 * @param ingressPeer the gateway's pods, allowed to reach the proxy
 * @param s3ChecksumWhenRequired whether user servers compute S3 checksums only when required
 * @param caCertificates the cluster's private CA bundle, trusted by the hub and the user servers; empty if none
 */
public record HubContext(
        String managedBy,
        String domain,
        String ingressClass,
        String tlsSecret,
        String storageClass,
        String forwardAuthUrl,
        String signInUrl,
        String imagePullSecret,
        String hubImage,
        String proxyImage,
        Capacity hub,
        Capacity proxy,
        IngressPeer ingressPeer,
        boolean s3ChecksumWhenRequired,
        List<String> caCertificates) {

    /** CPU and memory of a container, as Kubernetes quantities. */
    public record Capacity(String cpu, String memory) {}

    /** {@code <name>-<namespace>.<domain>}: the public host of an instance. */
    public String publicHost(String name, String namespace) {
        return name + "-" + namespace + "." + domain;
    }
}
