package io.lakehouse.notebooks.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The user pods KubeSpawner runs for a hub. They are not the service's objects (managed by
 * KubeSpawner, so outside the informers): one LIST by label per pass of a hub.
 */
@ApplicationScoped
public class UserServerPods implements NotebookContext.UserServers {

    /** What this class does with pods; the chart's ClusterRole grants it (deploy/chart-check's ChartRbacTest). */
    public static final List<String> POD_VERBS = List.of("list");

    private final KubernetesClient client;

    UserServerPods(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public List<Instant> startTimes(String namespace, Map<String, String> labels) {
        return client.pods().inNamespace(namespace).withLabels(labels).list().getItems().stream()
                .map(UserServerPods::started).filter(Objects::nonNull).toList();
    }

    /** When the server started (the kubelet's start time), else when the pod was made. */
    private static Instant started(Pod pod) {
        String at = pod.getStatus() != null && pod.getStatus().getStartTime() != null ? pod.getStatus().getStartTime()
                : pod.getMetadata().getCreationTimestamp();
        return at == null ? null : Instant.parse(at);
    }
}
