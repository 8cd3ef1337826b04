package io.lakehouse.sparkjobs.kube;

import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.sparkjobs.domain.JobProfile;
import io.lakehouse.sparkjobs.domain.LaunchForm;

/**
 * Everything a SparkApplication is built from, resolved: the normalized form, the profile (or the
 * explicit image as one), the namespace bucket of an S3 source.
 *
 * @param schedule the schedule a run belongs to, or null
 * @param bucket the bucket of an S3 source, else null
 */
public record JobPlan(String namespace, LaunchForm form, JobProfile profile, BucketSecrets.Bucket bucket,
        String schedule, String createdBy) {

    public String name() {
        return form.name();
    }

    public String sourceType() {
        return form.source().type();
    }
}
