package io.lakehouse.sparkjobs.kube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lakehouse.sparkjobs.config.SparkJobSettings;

/**
 * A schedule's ScheduledSparkApplication, pure: the job's spec as template, the policy always set
 * (the operator has no default: an empty one stops the schedule after its first run).
 */
public final class ScheduledApplications {

    private ScheduledApplications() {}

    public static GenericKubernetesResource of(JobPlan plan, String cron, String timeZone, String policy,
            int runsKept, boolean suspend, SparkJobSettings settings, String managedBy) {
        ObjectNode spec = SparkApplications.JSON.createObjectNode()
                .put("schedule", cron)
                .put("timeZone", timeZone)
                .put("concurrencyPolicy", policy)
                .put("suspend", suspend)
                .put("successfulRunHistoryLimit", runsKept)
                .put("failedRunHistoryLimit", runsKept);
        spec.set("template", SparkApplications.spec(plan, settings));
        // The operator copies these labels onto each run: the history knows the schedule from them.
        return SparkApplications.resource(SparkResources.SCHEDULED, plan,
                JobLabels.of(plan.name(), plan.name(), managedBy), spec);
    }
}
