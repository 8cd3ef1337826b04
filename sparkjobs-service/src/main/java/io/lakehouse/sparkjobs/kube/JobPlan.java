package io.lakehouse.sparkjobs.kube;

import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.sparkjobs.domain.JobProfile;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Everything a SparkApplication is built from, resolved: the normalized form, the profile (or the
 * explicit image as one), the namespace bucket of an S3 source.
 *
 * @param schedule the schedule a run belongs to, or null
 * @param bucket the bucket of an S3 source, else null
 * @param cluster what the cluster's settings (lakehouse.cluster.*) ask of every pod
 */
public record JobPlan(String namespace, LaunchForm form, JobProfile profile, BucketSecrets.Bucket bucket,
        String schedule, String createdBy, ClusterPods cluster) {

    /**
     * @param pullSecret the cluster's registry Secret ({@code image-pull-secret}), or null
     * @param s3ChecksumWhenRequired whether pods compute S3 checksums only when required
     * @param caCertificates the cluster's private CA bundle ({@code ca-bundle}), one PEM each; empty when unset
     */
    public record ClusterPods(String pullSecret, boolean s3ChecksumWhenRequired, List<String> caCertificates) {
        public static ClusterPods of(ClusterSettings cluster) {
            return new ClusterPods(cluster.imagePullSecret().orElse(null), cluster.s3ChecksumWhenRequired(),
                    cluster.caCertificates());
        }
    }

    public String name() {
        return form.name();
    }

    /**
     * The job's own registry Secret (its image's, or its profile's) and the cluster's, which the code
     * fetchers' images and a mirrored Spark image need: the operator gives them to driver and executors.
     */
    public List<String> pullSecrets() {
        return Stream.of(profile.pullSecret(), cluster.pullSecret()).filter(Objects::nonNull).distinct().toList();
    }

    public String sourceType() {
        return form.source().type();
    }

    public boolean typedScript() {
        return "script".equals(sourceType());
    }

    /** The cluster's CA certificates the job's pods trust; empty when the cluster has no bundle. */
    public List<String> caCertificates() {
        return cluster.caCertificates();
    }

    /**
     * Whether the job has its ConfigMap {@code sparkjob-<name>}: a typed script's code, and the CA bundle's
     * certificates when the cluster has one (then every job has it, whatever its source).
     */
    public boolean hasConfigMap() {
        return typedScript() || !caCertificates().isEmpty();
    }
}
