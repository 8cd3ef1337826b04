package io.lakehouse.notebooks.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.InstanceApi;

/** Calls as a user would make them, and the events the other services would publish ({@link InstanceApi}). */
public final class Api extends InstanceApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Api() {}

    /** What engines-service publishes for a trino, spark-connect or mlflow instance. */
    public static void engineEvent(EventType type, String namespace, String kind, String name, String internal,
            boolean requireToken) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", kind).put("name", name)
                .put("uid", java.util.UUID.randomUUID().toString()).put("generation", 1)
                .put("phase", type == EventType.INSTANCE_DELETED ? "Deleting" : "Ready").put("createdBy", "alice");
        data.putArray("conditions");
        data.putObject("spec").put("requireToken", requireToken);
        data.putObject("endpoints").put("internal", internal);
        try (EventWriter writer = new EventWriter()) {
            writer.send(LakehouseEvent.of("/lakehouse/engines-service", type,
                    LakehouseEvent.instanceSubject(namespace, kind, name), data));
        }
    }

    /** {@code access.member-set}, as access-service publishes a role in a namespace. */
    public static LakehouseEvent memberSet(String namespace, String subjectType, String subject, String role) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("subjectType", subjectType)
                .put("subject", subject).put("role", role);
        return LakehouseEvent.of("/lakehouse/access-service", EventType.MEMBER_SET, namespace, data);
    }
}
