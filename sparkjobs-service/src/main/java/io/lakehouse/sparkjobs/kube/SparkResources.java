package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** The Spark Operator's resources (sparkoperator.k8s.io/v1beta2), named without discovery. */
public final class SparkResources {

    public static final String GROUP = "sparkoperator.k8s.io";
    public static final String VERSION = "v1beta2";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String APPLICATION = "SparkApplication";
    public static final String SCHEDULED = "ScheduledSparkApplication";

    public static final ResourceDefinitionContext APPLICATIONS = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withKind(APPLICATION).withPlural("sparkapplications")
            .withNamespaced(true).build();

    public static final ResourceDefinitionContext SCHEDULES = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withKind(SCHEDULED).withPlural("scheduledsparkapplications")
            .withNamespaced(true).build();

    /** The operator's pod labels: the app's name and the pod's role. */
    public static final String APP_NAME_LABEL = "sparkoperator.k8s.io/app-name";
    public static final String ROLE_LABEL = "spark-role";

    private SparkResources() {}
}
