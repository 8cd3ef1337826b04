package io.lakehouse.common.testing;


import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * Calls as a user would make them to an instance service, and the events and Secrets the other services
 * would publish and write; each service's test {@code Api} extends it with its own.
 */
public class InstanceApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    protected InstanceApi() {}

    public static String instances(String namespace, String kind) {
        return "/api/v1/namespaces/" + namespace + "/instances/" + kind;
    }

    /** What catalog-service publishes for a catalog (its bucket Secret is {@code warehouse-bucket}). */
    public static LakehouseEvent catalogEvent(EventType type, String namespace, String name, String phase) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", "iceberg-catalog")
                .put("name", name).put("generation", 1).put("phase", phase).put("createdBy", "alice");
        data.putArray("conditions");
        data.putObject("spec").put("catalogName", "lakehouse").put("realm", "POLARIS").put("bucket", "warehouse")
                .put("endpoint", "http://minio.storage.svc:9000").put("region", "us-east-1")
                .put("pathStyleAccess", true).put("storageSecret", "warehouse-bucket")
                .put("internalUri", "http://" + name + "." + namespace + ".svc:8181/api/catalog")
                .put("rootPrincipalSecret", name + "-root-principal");
        return LakehouseEvent.of("/lakehouse/catalog-service", type,
                LakehouseEvent.instanceSubject(namespace, "iceberg-catalog", name), data);
    }

    /** Announces a Ready catalog, as catalog-service would. */
    public static void catalogReady(String namespace, String name) {
        try (EventWriter writer = new EventWriter()) {
            writer.send(catalogEvent(EventType.INSTANCE_READY, namespace, name, "Ready"));
        }
    }

    /** What access-service does once the OIDC client exists: the Secret, then the event. */
    public static void oidcClientReady(KubernetesClient kube, String namespace, String kind, String name) {
        oidcClientReady(kube, namespace, kind, name, "oidc-client-secret");
    }

    /** Writes (or rewrites, as a rotation does) {@code <name>-oidc}, then publishes the client as ready. */
    public static void oidcClientReady(KubernetesClient kube, String namespace, String kind, String name,
            String clientSecret) {
        oidcClientReady(kube, namespace, kind, name, clientSecret, null);
    }

    /** {@link #oidcClientReady}, the event written in the trace {@code traceparent} (none when null). */
    public static void oidcClientReady(KubernetesClient kube, String namespace, String kind, String name,
            String clientSecret, String traceparent) {
        oidcClientSecret(kube, namespace, kind, name, clientSecret);
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", kind).put("name", name)
                .put("clientId", namespace + "-" + name + "-" + kind).put("secretName", name + "-oidc");
        try (EventWriter writer = new EventWriter()) {
            writer.send(LakehouseEvent.of("/lakehouse/access-service", EventType.OIDC_CLIENT_READY,
                    LakehouseEvent.instanceSubject(namespace, kind, name), data), traceparent);
        }
    }

    /** The {@code <name>-oidc} Secret alone, as access-service writes it before its event. */
    public static void oidcClientSecret(KubernetesClient kube, String namespace, String kind, String name) {
        oidcClientSecret(kube, namespace, kind, name, "oidc-client-secret");
    }

    private static void oidcClientSecret(KubernetesClient kube, String namespace, String kind, String name,
            String clientSecret) {
        Base64.Encoder b64 = Base64.getEncoder();
        kube.secrets().inNamespace(namespace).resource(new SecretBuilder()
                .withNewMetadata().withName(name + "-oidc").withNamespace(namespace).endMetadata()
                .withData(Map.of(
                        "clientId", b64.encodeToString((namespace + "-" + name + "-" + kind).getBytes(StandardCharsets.UTF_8)),
                        "clientSecret", b64.encodeToString(clientSecret.getBytes(StandardCharsets.UTF_8)),
                        "issuer", b64.encodeToString("https://keycloak.example/realms/lakehouse".getBytes(StandardCharsets.UTF_8))))
                .build()).createOr(NonDeletingOperation::update);
    }

    /** {@code access.grant-added} / {@code -removed} as access-service publishes it. */
    public static void grant(EventType type, String namespace, String kind, String name, String subjectType,
            String subject) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", kind).put("name", name)
                .put("subjectType", subjectType).put("subject", subject);
        try (EventWriter writer = new EventWriter()) {
            writer.send(LakehouseEvent.of("/lakehouse/access-service", type,
                    LakehouseEvent.instanceSubject(namespace, kind, name), data));
        }
    }

    /** A namespace bucket Secret, as the platform writes it. */
    public static void bucketSecret(KubernetesClient kube, String namespace, String name) {
        Base64.Encoder b64 = Base64.getEncoder();
        kube.secrets().inNamespace(namespace).resource(new SecretBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace)
                .withLabels(Map.of("lakehouse.io/bucket", "true")).endMetadata()
                .withData(Map.of("AWS_ACCESS_KEY_ID", b64.encodeToString("AKIA-BUCKET".getBytes(StandardCharsets.UTF_8)),
                        "AWS_SECRET_ACCESS_KEY", b64.encodeToString("bucket-secret".getBytes(StandardCharsets.UTF_8))))
                .build()).create();
    }

    public static ObjectNode request(String name) {
        ObjectNode body = JSON.createObjectNode().put("name", name);
        body.putObject("spec");
        return body;
    }
}
