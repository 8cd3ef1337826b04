package io.lakehouse.common.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.local.ClusterSimulator;
import java.time.Duration;

/** One simulated kubelet + operators per test JVM, playing against the mock API server. */
public final class ClusterSimulation {

    private static ClusterSimulator simulator;

    private ClusterSimulation() {}

    public static synchronized ClusterSimulator of(KubernetesClient client) {
        if (simulator == null) {
            simulator = new ClusterSimulator(client, Duration.ZERO).start();
        }
        simulator.resume();
        return simulator;
    }
}
