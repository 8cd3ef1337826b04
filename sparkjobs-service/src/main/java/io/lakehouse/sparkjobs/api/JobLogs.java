package io.lakehouse.sparkjobs.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.lakehouse.sparkjobs.kube.DriverLogs;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.lakehouse.sparkjobs.store.JobStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Pods and driver lines of a job: live from the cluster while they exist, else what the history kept. */
@ApplicationScoped
public class JobLogs {

    static final int DEFAULT_TAIL = 100;
    static final int MAX_TAIL = 5000;

    private final KubernetesClient kube;
    private final JobStore jobs;

    JobLogs(KubernetesClient kube, JobStore jobs) {
        this.kube = kube;
        this.jobs = jobs;
    }

    /** The driver first, then the executors by name. */
    public List<PodView> pods(String namespace, String job) {
        return kube.pods().inNamespace(namespace).withLabel(SparkResources.APP_NAME_LABEL, job).list().getItems()
                .stream().map(JobLogs::view)
                .sorted(Comparator.comparing((PodView p) -> !"driver".equals(p.role())).thenComparing(PodView::name))
                .toList();
    }

    public LogTail tail(String namespace, String job, int lines) {
        var live = DriverLogs.tail(kube, namespace, DriverLogs.driverPod(job), lines);
        if (live.isPresent()) {
            return new LogTail(true, split(live.get(), lines));
        }
        return new LogTail(false, jobs.driverLog(namespace, job).await().indefinitely()
                .map(log -> split(log, lines)).orElse(List.of()));
    }

    /**
     * Server-sent events, one line each ({@code event: line}), until the driver's log ends; then
     * {@code event: end}. Without a driver pod, the kept lines and the end at once.
     */
    public StreamingOutput follow(String namespace, String job, int lines) {
        return out -> {
            try (LogWatch watch = kube.pods().inNamespace(namespace).withName(DriverLogs.driverPod(job))
                    .tailingLines(lines).watchLog();
                    BufferedReader reader = new BufferedReader(
                            new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    send(out, "line", line);
                }
            } catch (KubernetesClientException e) {
                for (String line : tail(namespace, job, lines).lines()) {
                    send(out, "line", line);
                }
            }
            send(out, "end", "");
        };
    }

    private static void send(OutputStream out, String event, String data) throws java.io.IOException {
        out.write(("event: " + event + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static List<String> split(String log, int lines) {
        List<String> all = Arrays.asList(log.split("\n", -1));
        if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
            all = all.subList(0, all.size() - 1);
        }
        return all.size() > lines ? all.subList(all.size() - lines, all.size()) : all;
    }

    private static PodView view(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        return new PodView(pod.getMetadata().getName(), labels.getOrDefault(SparkResources.ROLE_LABEL, "unknown"),
                pod.getStatus() == null ? null : pod.getStatus().getPhase());
    }
}
