package io.lakehouse.catalog.it;


import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;

/** Calls as a user would make them: bearer tokens, JSON bodies. */
public final class Api {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Api() {}

    public static String catalogs(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/instances/iceberg-catalog";
    }

    /** A create request with inline keys (the {@code secretAccessKey} is the canary to look for). */
    public static ObjectNode catalogRequest(String name, String secretAccessKey) {
        ObjectNode body = JSON.createObjectNode().put("name", name);
        body.putObject("spec").putObject("storage")
                .put("bucket", "warehouse")
                .put("endpoint", "http://minio.storage.svc:9000")
                .put("region", "us-east-1")
                .put("accessKeyId", "AKIA-TEST")
                .put("secretAccessKey", secretAccessKey);
        return body;
    }

    /** A membership event as access-service publishes it. */
    public static LakehouseEvent memberSet(String namespace, String subjectType, String subject, String role) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("subjectType", subjectType)
                .put("subject", subject).put("role", role);
        return LakehouseEvent.of("/lakehouse/access-service", EventType.MEMBER_SET, namespace, data);
    }

    /** An instance event of another service whose spec references a catalog. */
    public static LakehouseEvent engineEvent(EventType type, String namespace, String kind, String name, String catalog) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", kind).put("name", name)
                .put("phase", "Pending");
        data.putObject("spec").put("catalog", catalog);
        return LakehouseEvent.of("/lakehouse/engines-service", type,
                LakehouseEvent.instanceSubject(namespace, kind, name), data);
    }

    public static LakehouseEvent memberRemoved(String namespace, String subjectType, String subject) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("subjectType", subjectType)
                .put("subject", subject);
        return LakehouseEvent.of("/lakehouse/access-service", EventType.MEMBER_REMOVED, namespace, data);
    }
}
