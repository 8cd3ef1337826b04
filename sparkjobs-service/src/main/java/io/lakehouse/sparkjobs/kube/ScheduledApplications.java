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
        ObjectNode object = SparkApplications.JSON.createObjectNode()
                .put("apiVersion", SparkResources.API_VERSION)
                .put("kind", SparkResources.SCHEDULED);
        ObjectNode meta = object.putObject("metadata").put("name", plan.name()).put("namespace", plan.namespace());
        // The operator copies these labels onto each run: the history knows the schedule from them.
        meta.set("labels", SparkApplications.JSON.valueToTree(JobLabels.of(plan.name(), plan.name(), managedBy)));
        meta.putObject("annotations")
                .put(JobLabels.FORM, SparkApplications.formJson(plan.form()))
                .put(JobLabels.CREATED_BY, plan.createdBy());
        ObjectNode spec = object.putObject("spec")
                .put("schedule", cron)
                .put("timeZone", timeZone)
                .put("concurrencyPolicy", policy)
                .put("suspend", suspend)
                .put("successfulRunHistoryLimit", runsKept)
                .put("failedRunHistoryLimit", runsKept);
        spec.set("template", SparkApplications.spec(plan, settings));
        return SparkApplications.JSON.convertValue(object, GenericKubernetesResource.class);
    }
}
