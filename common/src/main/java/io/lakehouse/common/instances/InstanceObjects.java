package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLS;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLSBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.lakehouse.common.kube.EnvVars;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.NetworkPolicies;
import io.lakehouse.common.kube.ObjectMetas;
import io.lakehouse.common.kube.SecretData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Names, labels and small objects every kind shares. Labels carry the component's app name
 * ({@code app.kubernetes.io/name}) and the template kind ({@code lakehouse.io/kind}).
 */
public final class InstanceObjects {

    public static final String ROOT_SUFFIX = "-instance";
    public static final String S3_SUFFIX = "-s3";
    public static final String OIDC_SUFFIX = "-oidc";
    public static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    public static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";
    /** Keys of the {@code <name>-oidc} Secret access-service writes. */
    public static final String OIDC_CLIENT_ID = "clientId";
    public static final String OIDC_CLIENT_SECRET = "clientSecret";
    public static final String OIDC_ISSUER = "issuer";
    /** Pod-template annotation: pods restart when their configuration changes (a ConfigMap edit does not). */
    public static final String CONFIG_CHECKSUM = "lakehouse.io/config-checksum";
    public static final String AUTH_URL = "nginx.ingress.kubernetes.io/auth-url";
    public static final String AUTH_SIGNIN = "nginx.ingress.kubernetes.io/auth-signin";

    private InstanceObjects() {}

    public static String root(String name) {
        return name + ROOT_SUFFIX;
    }

    public static String s3Secret(String name) {
        return name + S3_SUFFIX;
    }

    public static String oidcSecret(String name) {
        return name + OIDC_SUFFIX;
    }

    public static Map<String, String> labels(String app, Instance inst, InstanceContext ctx, String component) {
        return Labels.of(app, inst.kind(), inst.name(), inst.uid(), component, ctx.managedBy());
    }

    public static Map<String, String> selector(String app, Instance inst, String component) {
        return Labels.selector(app, inst.name(), component);
    }

    public static ObjectMeta meta(String name, String app, Instance inst, InstanceContext ctx, String component,
            OwnerReference owner) {
        return ObjectMetas.of(name, inst.namespace(), labels(app, inst, ctx, component), owner);
    }

    /**
     * The instance's root object: every other object has an owner reference to it, so deleting it
     * lets Kubernetes garbage collection remove whatever the service did not.
     */
    public static ConfigMap rootObject(Instance inst, String app, InstanceContext ctx) {
        return new ConfigMapBuilder()
                .withMetadata(meta(root(inst.name()), app, inst, ctx, "instance", null))
                .withData(Map.of("kind", inst.kind(), "instance", inst.name(), "uid", inst.uid().toString()))
                .build();
    }

    /** An Opaque Secret of the instance. */
    public static Secret secret(String name, String app, Instance inst, InstanceContext ctx, String component,
            OwnerReference owner, Map<String, String> values) {
        return new SecretBuilder()
                .withMetadata(meta(name, app, inst, ctx, component, owner))
                .withType("Opaque")
                .withData(SecretData.encode(values))
                .build();
    }

    /** S3 keys typed in the form, written to {@code <name>-s3}. */
    public static Secret s3Secret(Instance inst, String app, InstanceContext ctx, OwnerReference owner,
            String accessKeyId, String secretAccessKey) {
        return secret(s3Secret(inst.name()), app, inst, ctx, "credentials", owner,
                Map.of(ACCESS_KEY_ID, accessKeyId, SECRET_ACCESS_KEY, secretAccessKey));
    }

    /**
     * The instance's public Ingress: every path of {@code https://<name>-<ns>.<domain>/} to the
     * Service named like the instance, on {@code port}.
     */
    public static Ingress publicIngress(ObjectMeta meta, Instance inst, InstanceContext ctx, int port,
            Map<String, String> annotations) {
        String host = ctx.publicHost(inst.name(), inst.namespace());
        return new IngressBuilder()
                .withMetadata(meta)
                .editMetadata().withAnnotations(annotations).endMetadata()
                .withNewSpec()
                    .withIngressClassName(ctx.ingressClass())
                    .withTls(ingressTls(host, ctx))
                    .addNewRule().withHost(host)
                        .withNewHttp()
                            .addNewPath().withPath("/").withPathType("Prefix")
                                .withNewBackend().withNewService().withName(inst.name())
                                    .withNewPort().withNumber(port).endPort()
                                .endService().endBackend()
                            .endPath()
                        .endHttp()
                    .endRule()
                .endSpec()
                .build();
    }

    /** The TLS block of a public Ingress: the cluster's wildcard certificate, when it has one. */
    public static List<IngressTLS> ingressTls(String host, InstanceContext ctx) {
        return ctx.tlsSecret() == null ? List.of()
                : List.of(new IngressTLSBuilder().withHosts(host).withSecretName(ctx.tlsSecret()).build());
    }

    /**
     * ingress-nginx annotations for HTTPS to the pods, verified against the instance's own CA (key
     * {@code ca.crt} of its TLS Secret) with the Service's in-cluster name.
     */
    public static Map<String, String> backendTls(Instance inst, String tlsSecret) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("nginx.ingress.kubernetes.io/backend-protocol", "HTTPS");
        annotations.put("nginx.ingress.kubernetes.io/proxy-ssl-secret", inst.namespace() + "/" + tlsSecret);
        annotations.put("nginx.ingress.kubernetes.io/proxy-ssl-verify", "on");
        annotations.put("nginx.ingress.kubernetes.io/proxy-ssl-name", inst.name() + "." + inst.namespace() + ".svc");
        annotations.put("nginx.ingress.kubernetes.io/proxy-ssl-server-name", "on");
        return annotations;
    }

    /**
     * The instance's NetworkPolicy {@code <name>}: pods of the namespace on {@code namespacePorts}, the
     * ingress controller on {@code publicPorts} (none when the instance has no public route).
     */
    public static NetworkPolicy networkPolicy(String app, Instance inst, InstanceContext ctx, OwnerReference owner,
            List<Integer> namespacePorts, List<Integer> publicPorts) {
        return NetworkPolicies.of(meta(inst.name(), app, inst, ctx, "network", owner),
                NetworkPolicies.instancePods(inst.kind(), inst.name()), namespacePorts, ctx.ingressPeer(), publicPorts);
    }

    /**
     * ingress-nginx forward auth: before each request the gateway asks access-service whether the
     * caller (its session, or a bearer token) holds a grant on the instance behind the host, and sends
     * callers without a session to the sign-in page. Every instance with a public route has it; the
     * instance's own login (if any) comes after.
     */
    public static Map<String, String> forwardAuth(Instance inst, InstanceContext ctx) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(AUTH_URL, ctx.forwardAuthUrl() + "?host=" + ctx.publicHost(inst.name(), inst.namespace()));
        // nginx variables, expanded by the controller per request: back to the page asked for.
        annotations.put(AUTH_SIGNIN, ctx.signInUrl() + "?rd=https://$host$escaped_request_uri");
        return annotations;
    }

    /**
     * The AWS SDKs' checksum settings for a pod that talks S3: {@code when_required} when the cluster's
     * store rejects the default checksums, else nothing (the SDKs' defaults).
     */
    public static List<EnvVar> s3ChecksumEnv(InstanceContext ctx) {
        return ctx.s3ChecksumWhenRequired()
                ? List.of(EnvVars.value("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required"),
                        EnvVars.value("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required"))
                : List.of();
    }

    /** The registry Secret, when the cluster's images need one. */
    public static List<LocalObjectReference> pullSecrets(InstanceContext ctx) {
        return ctx.imagePullSecret() == null ? List.of() : List.of(new LocalObjectReference(ctx.imagePullSecret()));
    }
}
