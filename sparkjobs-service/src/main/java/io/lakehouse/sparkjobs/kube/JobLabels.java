package io.lakehouse.sparkjobs.kube;

import io.lakehouse.common.kube.Labels;
import java.util.Map;
import java.util.TreeMap;

/** The labels and annotations of a job's objects. The operator copies an app's labels onto its pods. */
public final class JobLabels {

    /** The job's name, on its SparkApplication, ConfigMap and (copied by the operator) pods. */
    public static final String JOB = "lakehouse.io/sparkjob";
    /** The schedule a run came from (the seed's ⏱ marker). */
    public static final String SCHEDULE = "lakehouse.io/spark-schedule";
    /** The launch form, JSON without script text or any credential: what a relaunch starts from. */
    public static final String FORM = "lakehouse.io/sparkjob-form";
    /** Who launched the job. */
    public static final String CREATED_BY = "lakehouse.io/created-by";

    private JobLabels() {}

    public static Map<String, String> of(String job, String schedule, String managedBy) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(Labels.MANAGED_BY, managedBy);
        labels.put(Labels.PART_OF, Labels.PART_OF_VALUE);
        labels.put(JOB, job);
        if (schedule != null) {
            labels.put(SCHEDULE, schedule);
        }
        return labels;
    }
}
