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

    public static Optional<String> tail(KubernetesClient kube, String namespace, String pod, int lines) {
        try {
            var resource = kube.pods().inNamespace(namespace).withName(pod);
            if (resource.get() == null) {
                return Optional.empty();
            }
            return Optional.ofNullable(resource.tailingLines(lines).getLog());
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }
}
