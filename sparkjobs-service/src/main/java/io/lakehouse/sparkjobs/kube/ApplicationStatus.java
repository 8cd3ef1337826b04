package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.kube.CompactObject;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.sparkjobs.domain.JobState;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Objects;

/**
 * What a SparkApplication says about its run, pure: the operator's state ({@code NEW} while its
 * status is empty), times, error, driver pod; for one made by hand, what the history can show.
 *
 * @param ours launched through the API (its launch records it); a schedule's run carries the
 *     schedule's labels, whose job name is the schedule's, so it is not
 */
public record ApplicationStatus(String namespace, String name, String state, OffsetDateTime startedAt,
        OffsetDateTime endedAt, String error, String driverPod, boolean ours, String schedule, String sourceType,
        String createdBy, OffsetDateTime createdAt) {

    public static ApplicationStatus of(GenericKubernetesResource app, String managedBy) {
        // Read in place: every informer event of every application passes here (no tree of its spec).
        String state = Objects.requireNonNullElse(text(app, "status", "applicationState", "state"), "");
        Map<String, String> labels = app.getMetadata().getLabels() == null ? Map.of() : app.getMetadata().getLabels();
        Map<String, String> notes = app.getMetadata().getAnnotations() == null ? Map.of()
                : app.getMetadata().getAnnotations();
        String schedule = labels.get(JobLabels.SCHEDULE);
        if (schedule == null && app.getMetadata().getOwnerReferences() != null) {
            schedule = app.getMetadata().getOwnerReferences().stream()
                    .filter(o -> SparkResources.SCHEDULED.equals(o.getKind())).map(OwnerReference::getName)
                    .findFirst().orElse(null);
        }
        String file = Objects.requireNonNullElse(text(app, "spec", "mainApplicationFile"), "");
        String source = file.startsWith("s3") ? "s3" : "file";
        return new ApplicationStatus(app.getMetadata().getNamespace(), app.getMetadata().getName(),
                state.isEmpty() ? JobState.NEW : state,
                time(text(app, "status", "lastSubmissionAttemptTime")), time(text(app, "status", "terminationTime")),
                text(app, "status", "applicationState", "errorMessage"),
                text(app, "status", "driverInfo", "podName"),
                managedBy.equals(labels.get(Labels.MANAGED_BY))
                        && app.getMetadata().getName().equals(labels.get(JobLabels.JOB)), schedule, source,
                notes.get(JobLabels.CREATED_BY),
                app.getMetadata().getCreationTimestamp() == null ? OffsetDateTime.now()
                        : OffsetDateTime.parse(app.getMetadata().getCreationTimestamp()));
    }

    /**
     * A copy of the application with what {@link #of} reads and what an informer needs to follow it (uid,
     * resourceVersion), sharing the original's parts: the tracker's cache keeps this instead of the whole object
     * (pod templates, the form's annotation: 2 to 8 KB of JSON, every application kept until the operator's TTL, in
     * the old generation).
     */
    public static GenericKubernetesResource compact(GenericKubernetesResource app) {
        ObjectMeta from = app.getMetadata();
        String createdBy = from.getAnnotations() == null ? null : from.getAnnotations().get(JobLabels.CREATED_BY);
        ObjectMeta meta = CompactObject.metadata(from,
                createdBy == null ? Map.of() : Map.of(JobLabels.CREATED_BY, createdBy));
        GenericKubernetesResource copy = new GenericKubernetesResource();
        copy.setApiVersion(app.getApiVersion());
        copy.setKind(app.getKind());
        copy.setMetadata(meta);
        String file = text(app, "spec", "mainApplicationFile");
        if (file != null) {
            copy.setAdditionalProperty("spec", Map.of("mainApplicationFile", file));
        }
        Object status = app.getAdditionalProperties().get("status");
        if (status != null) {
            copy.setAdditionalProperty("status", status);
        }
        return copy;
    }

    private static OffsetDateTime time(String text) {
        return text == null ? null : OffsetDateTime.parse(text);
    }

    /** The scalar at that path as text; null when missing, empty or not a scalar. */
    private static String text(GenericKubernetesResource app, String... path) {
        Object value = app.get((Object[]) path);
        if (value == null || value instanceof Map || value instanceof java.util.List) {
            return null;
        }
        String text = value.toString();
        return text.isEmpty() ? null : text;
    }
}
