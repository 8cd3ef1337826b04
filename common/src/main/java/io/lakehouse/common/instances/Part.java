package io.lakehouse.common.instances;

import io.lakehouse.common.kube.ResourceKind;

/**
 * A workload whose readiness the status reports as a condition, e.g. the Trino coordinator
 * Deployment as {@code CoordinatorReady}.
 *
 * @param kind Deployment, StatefulSet or CloudNativePG Cluster
 * @param objectName the object's name
 * @param condition the condition type it sets
 * @param what what the workload is, for messages ("the Trino coordinator")
 * @param startingMessage the message while it is not ready (e.g. NiFi's long start)
 */
public record Part(ResourceKind kind, String objectName, String condition, String what, String startingMessage) {

    public static Part of(ResourceKind kind, String objectName, String condition, String what) {
        return new Part(kind, objectName, condition, what, "waiting for " + what + " to be ready");
    }

    public Part startingMessage(String message) {
        return new Part(kind, objectName, condition, what, message);
    }
}
