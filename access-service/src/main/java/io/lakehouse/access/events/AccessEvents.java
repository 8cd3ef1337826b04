package io.lakehouse.access.events;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.security.Subject;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The lakehouse.access events this service publishes. Membership data is exactly what common's
 * {@code AccessEventsConsumer} reads: namespace, subjectType, subject, role; subject = namespace.
 */
@ApplicationScoped
public class AccessEvents {

    /** The fields of a grant's events that name its holder. */
    public static final String SUBJECT_TYPE = "subjectType";
    public static final String SUBJECT = "subject";

    private final String source;

    AccessEvents(ServiceSettings service) {
        this.source = service.eventSource();
    }

    public LakehouseEvent memberSet(String namespace, Subject subject, Role role) {
        return LakehouseEvent.of(source, EventType.MEMBER_SET, namespace,
                membership(namespace, subject).put("role", role.wireName()));
    }

    public LakehouseEvent memberRemoved(String namespace, Subject subject) {
        return LakehouseEvent.of(source, EventType.MEMBER_REMOVED, namespace, membership(namespace, subject));
    }

    public LakehouseEvent grantAdded(InstanceKey instance, Subject subject) {
        return LakehouseEvent.of(source, EventType.GRANT_ADDED, instance.subject(), grant(instance, subject));
    }

    public LakehouseEvent grantRemoved(InstanceKey instance, Subject subject) {
        return LakehouseEvent.of(source, EventType.GRANT_REMOVED, instance.subject(), grant(instance, subject));
    }

    /**
     * {@link #grantRemoved} of every grant of {@code instance}, for a statement that removes them all: the data the
     * events share, to which the statement adds each grant's {@link #SUBJECT_TYPE} and {@link #SUBJECT}.
     */
    public LakehouseEvent grantsRemoved(InstanceKey instance) {
        return LakehouseEvent.of(source, EventType.GRANT_REMOVED, instance.subject(), instanceData(instance));
    }

    /**
     * The groups of {@code user}'s token changed (subject {@code user:<name>}, so one user's sightings
     * stay in order); {@code seenAt} orders them for consumers that see one twice.
     */
    public LakehouseEvent userGroupsSeen(String user, List<String> groups, Instant seenAt) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("user", user);
        groups.forEach(data.putArray("groups")::add);
        return new LakehouseEvent(UUID.randomUUID(), source, EventType.USER_GROUPS_SEEN,
                Subject.Type.USER.wireName() + ":" + user, seenAt, data);
    }

    /** The client is there and {@code <name>-oidc} holds its credentials (never the secret itself here). */
    public LakehouseEvent oidcClientReady(InstanceKey instance, String clientId) {
        return LakehouseEvent.of(source, EventType.OIDC_CLIENT_READY, instance.subject(),
                oidcClient(instance, clientId).put("secretName", instance.name() + "-oidc"));
    }

    public LakehouseEvent oidcClientRemoved(InstanceKey instance, String clientId) {
        return LakehouseEvent.of(source, EventType.OIDC_CLIENT_REMOVED, instance.subject(),
                oidcClient(instance, clientId));
    }

    private static ObjectNode oidcClient(InstanceKey instance, String clientId) {
        return JsonNodeFactory.instance.objectNode().put("namespace", instance.namespace())
                .put("kind", instance.kind()).put("name", instance.name()).put("clientId", clientId);
    }

    private static ObjectNode membership(String namespace, Subject subject) {
        return JsonNodeFactory.instance.objectNode().put("namespace", namespace)
                .put("subjectType", subject.type().wireName()).put("subject", subject.name());
    }

    private static ObjectNode grant(InstanceKey instance, Subject subject) {
        return instanceData(instance).put(SUBJECT_TYPE, subject.type().wireName()).put(SUBJECT, subject.name());
    }

    private static ObjectNode instanceData(InstanceKey instance) {
        return JsonNodeFactory.instance.objectNode().put("namespace", instance.namespace())
                .put("kind", instance.kind()).put("name", instance.name());
    }
}
