package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/** The driver's log through the Kubernetes pod log API; empty when the pod (or its log) is gone. */
public final class DriverLogs {

    private DriverLogs() {}

    public static String driverPod(String job) {
        return job + "-driver";
    }

    /**
     * One GET of the pod's log endpoint. Not fabric8's {@code getLog()}: before reading, it waits for the pod to be
     * ready through an informer of its own (a LIST and a WATCH of the pod, even with a zero timeout, which then
     * throws and is swallowed), three calls more than the log for a driver that has mostly ended. Namespace and
     * pod are DNS names (the API server allows no others), so they go into the path as they are.
     */
    public static Optional<String> tail(KubernetesClient kube, String namespace, String pod, int lines) {
        try {
            return Optional.ofNullable(kube.raw("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/log?tailLines="
                    + lines, "GET", null));
        } catch (KubernetesClientException e) {
            // 404: the pod (or its log) is gone.
            return Optional.empty();
        }
    }
}
