package io.lakehouse.access.store;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;

/**
 * One row of the audit log.
 *
 * @param actor who acted (user name; for lifecycle events the deployer when known, else the service)
 * @param action for audit.recorded {@code METHOD /path/template}; else the event type, e.g. instance.ready, and for
 *     a job's state change the state, e.g. {@code sparkjob.state-changed to FAILED}
 * @param outcome HTTP status of an API call; null for lifecycle events
 */
public record AuditEntry(@JsonIgnore long seq, Instant time, String type, String namespace, String actor,
        String action, String target, Integer outcome, String requestId) {}
