package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.lakehouse.common.instances.CaBundle;
import java.util.List;
import java.util.Optional;

/** Platform-wide settings of the cluster the services deploy into (env-overridable). */
@ConfigMapping(prefix = "lakehouse.cluster")
public interface ClusterSettings {

    /** {@code lakehouse.cluster.domain}: public hosts are {@code <name>-<namespace>.<domain>}. */
    @WithDefault("lakehouse.localtest.me")
    String domain();

    /** {@code lakehouse.cluster.ingress-class}, default {@code nginx}. */
    @WithDefault("nginx")
    String ingressClass();

    /** {@code lakehouse.cluster.tls-secret}: wildcard certificate Secret for the public hosts, if any. */
    Optional<String> tlsSecret();

    /** {@code lakehouse.cluster.storage-class}: for PVCs and database volumes; cluster default if unset. */
    Optional<String> storageClass();

    /** {@code lakehouse.cluster.oidc-issuer}: issuer that instances use for platform sign-in. */
    @WithDefault("https://keycloak.lakehouse.localtest.me/realms/lakehouse")
    String oidcIssuer();

    /**
     * {@code lakehouse.cluster.image-pull-secret}: the registry Secret (docker-registry, the same name in
     * every tenant namespace) that every pod the services create pulls its images with, and that the
     * CloudNativePG clusters get ({@code spec.imagePullSecrets}); none if unset.
     */
    Optional<String> imagePullSecret();

    /**
     * {@code lakehouse.cluster.s3-checksum-when-required}, default false: for S3-compatible stores that
     * reject the default checksums of newer AWS SDKs (Java SDK v2 ≥ 2.30, boto3 ≥ 1.36), every pod that
     * talks S3 gets {@code AWS_REQUEST_CHECKSUM_CALCULATION} and {@code AWS_RESPONSE_CHECKSUM_VALIDATION}
     * = {@code when_required}.
     */
    @WithDefault("false")
    boolean s3ChecksumWhenRequired();

    /**
     * {@code lakehouse.cluster.ca-bundle}: PEM certificates of a private CA that Keycloak or the S3 store
     * use (the chart passes its {@code cluster.caBundle} ConfigMap here). Every component the services
     * deploy then trusts them besides its image's own roots: Java ones through a truststore, Python ones
     * through a PEM file, both built by an init container ({@code CaBundle}). None if unset.
     */
    Optional<String> caBundle();

    /** The certificates of {@link #caBundle()}, each checked (a malformed bundle stops the service's start). */
    default List<String> caCertificates() {
        return caBundle().filter(b -> !b.isBlank()).map(CaBundle::certificates)
                .orElse(List.of());
    }

    Images images();

    IngressController ingressController();

    /**
     * The gateway's pods, the only ones outside an instance's namespace its NetworkPolicy lets in
     * (on the ports of its public routes).
     */
    interface IngressController {
        /** {@code lakehouse.cluster.ingress-controller.namespace}, default {@code ingress-nginx}. */
        @WithDefault("ingress-nginx")
        String namespace();

        /**
         * {@code lakehouse.cluster.ingress-controller.pod-labels}: {@code key=value,...} of the controller's
         * pods, default {@code app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller}
         * (the ingress-nginx chart's labels).
         */
        @WithDefault("app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller")
        String podLabels();
    }

    /** Images and versions of the components; a cluster without Docker Hub overrides them. */
    interface Images {
        /** {@code lakehouse.cluster.images.polaris}. */
        @WithDefault("apache/polaris:1.7.0")
        String polaris();

        /** {@code lakehouse.cluster.images.polaris-admin-tool}: must match the server version. */
        @WithDefault("apache/polaris-admin-tool:1.7.0")
        String polarisAdminTool();

        /** {@code lakehouse.cluster.images.curl}: runs the catalog-creation task. */
        @WithDefault("curlimages/curl:8.11.1")
        String curl();

        /** {@code lakehouse.cluster.images.postgres}: CloudNativePG operand image; operator default if unset. */
        Optional<String> postgres();
    }
}
