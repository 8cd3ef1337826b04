package io.lakehouse.common.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The data of one {@code audit.recorded} event.
 *
 * @param what {@code METHOD /path/{template}}
 * @param namespace null for calls outside a namespace
 * @param target the concrete path of the call
 * @param outcome the HTTP status answered; null in the intent written before the call (and published
 *     as such when the replica stopped before answering)
 */
public record AuditRecord(String who, String what, String namespace, String target, Integer outcome,
        String requestId) {

    public ObjectNode toJson() {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("who", who).put("what", what)
                .put("target", target).put("requestId", requestId);
        if (outcome != null) {
            data.put("outcome", outcome);
        }
        if (namespace != null) {
            data.put("namespace", namespace);
        }
        return data;
    }

    /** The same call with its outcome. */
    public AuditRecord withOutcome(int status) {
        return new AuditRecord(who, what, namespace, target, status, requestId);
    }

    /** The event subject (record key): the namespace, or {@code platform} outside namespaces. */
    public String subject() {
        return namespace != null ? namespace : "platform";
    }
}
