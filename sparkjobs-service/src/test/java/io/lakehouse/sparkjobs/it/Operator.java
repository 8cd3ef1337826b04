package io.lakehouse.sparkjobs.it;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.sparkjobs.kube.SparkResources;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plays the Spark Operator against the mock API (which has no controllers): status updates as the
 * operator writes them, driver and executor pods with the labels it gives them.
 */
final class Operator {

    private Operator() {}

    static void state(KubernetesClient kube, String ns, String name, String state, String submitted,
            String terminated) {
        GenericKubernetesResource app = Api.application(kube, ns, name);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("applicationState", Map.of("state", state));
        if (submitted != null) {
            status.put("lastSubmissionAttemptTime", submitted);
        }
        if (terminated != null) {
            status.put("terminationTime", terminated);
        }
        status.put("driverInfo", Map.of("podName", name + "-driver"));
        app.setAdditionalProperty("status", status);
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).resource(app).updateStatus();
    }

    /** A running job's status rewritten with {@code count} executors: no state change. */
    static void executors(KubernetesClient kube, String ns, String name, int count) {
        GenericKubernetesResource app = Api.application(kube, ns, name);
        @SuppressWarnings("unchecked")
        Map<String, Object> status = new LinkedHashMap<>((Map<String, Object>) app.getAdditionalProperties()
                .get("status"));
        Map<String, Object> executors = new LinkedHashMap<>();
        for (int i = 1; i <= count; i++) {
            executors.put(name + "-exec-" + i, "RUNNING");
        }
        status.put("executorState", executors);
        app.setAdditionalProperty("status", status);
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).resource(app).updateStatus();
    }

    static void pods(KubernetesClient kube, String ns, String name, int executors) {
        pod(kube, ns, name + "-driver", name, "driver");
        for (int i = 1; i <= executors; i++) {
            pod(kube, ns, name + "-exec-" + i, name, "executor");
        }
    }

    private static void pod(KubernetesClient kube, String ns, String pod, String app, String role) {
        kube.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName(pod).withNamespace(ns)
                .withLabels(Map.of(SparkResources.APP_NAME_LABEL, app, SparkResources.ROLE_LABEL, role)).endMetadata()
                .withNewSpec().addNewContainer().withName("spark").withImage("apache/spark:3.5.3").endContainer()
                .endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
    }
}
