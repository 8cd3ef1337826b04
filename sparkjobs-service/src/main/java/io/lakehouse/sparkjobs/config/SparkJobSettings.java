package io.lakehouse.sparkjobs.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the service puts into every SparkApplication, and the limits of the launch form. */
@ConfigMapping(prefix = "lakehouse.sparkjobs")
public interface SparkJobSettings {

    /**
     * {@code lakehouse.sparkjobs.spark-version}: {@code spec.sparkVersion}; the operator allows pod
     * templates (how volumes and env reach the pods without its webhook) from 3.0 on.
     */
    @WithDefault("4.0.1")
    String sparkVersion();

    /** {@code lakehouse.sparkjobs.service-account}: the namespace's account the drivers run as. */
    @WithDefault("spark")
    String serviceAccount();

    /** {@code lakehouse.sparkjobs.max-script-bytes}: a typed script's limit (UTF-8), well below a ConfigMap's 1 MiB. */
    @WithDefault("262144")
    int maxScriptBytes();

    /** {@code lakehouse.sparkjobs.default-ttl-hours}: how long a finished SparkApplication stays (its driver log with it). */
    @WithDefault("168")
    int defaultTtlHours();

    /** {@code lakehouse.sparkjobs.run-as-user}: uid and gid of the Spark containers (the apache/spark images' {@code spark}). */
    @WithDefault("185")
    long runAsUser();

    /**
     * {@code lakehouse.sparkjobs.operator-answer-timeout}: a job still without any state from the operator
     * after this long carries a note that the operator may not watch its namespace.
     */
    @WithDefault("60s")
    java.time.Duration operatorAnswerTimeout();

    /** {@code lakehouse.sparkjobs.s3-image} ({@code SPARK_JOB_S3_IMAGE}): fetches an S3 source. */
    @WithDefault("amazon/aws-cli:2.22.35")
    String s3Image();

    /** {@code lakehouse.sparkjobs.git-image} ({@code SPARK_JOB_GIT_IMAGE}): clones a Git source. */
    @WithDefault("alpine/git:2.47.2")
    String gitImage();
}
