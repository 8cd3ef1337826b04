package io.lakehouse.sparkjobs.kube;

import java.util.List;
import java.util.Set;

/**
 * What this service's calls send to the Kubernetes API, resource by resource. The chart's ClusterRole
 * (deploy/helm/lakehouse/files/rbac/sparkjobs.yaml) must grant exactly this plus the rules of the spark
 * Role it creates ({@link SparkRbac}): deploy/chart-check's ChartRbacTest compares them. A new call needs
 * its verb here, or the service gets 403 on a real cluster.
 */
public final class KubeAccess {

    /**
     * One resource of an API group ("" for the core group; a subresource as {@code pods/log}) and the
     * verbs sent on it.
     */
    public record Use(String group, String resource, Set<String> verbs) {}

    public static final List<Use> USES = List.of(
            // JobService creates, JobLifecycle and the launch's rollback delete; JobTracker's informer lists and watches.
            new Use(SparkResources.GROUP, SparkResources.APPLICATIONS.getPlural(),
                    Set.of("create", "delete", "list", "watch")),
            // ScheduleService: get (exists already?), create, edit (fabric8: get, then a JSON patch), delete.
            new Use(SparkResources.GROUP, SparkResources.SCHEDULES.getPlural(), Set.of("get", "create", "patch", "delete")),
            // A typed script: create, update on 409 (fabric8 reads the resourceVersion first), the schedule's
            // owner reference by edit (get + patch), delete.
            new Use("", "configmaps", Set.of("get", "create", "update", "patch", "delete")),
            // JobLogs lists a job's pods, DriverLogs reads the driver, cancel deletes the pods by label
            // (one DELETE on the collection).
            new Use("", "pods", Set.of("get", "list", "deletecollection")),
            new Use("", "pods/log", Set.of("get")),
            // An S3 source's bucket Secret, a Git source's token Secret: read by name, never listed.
            new Use("", "secrets", Set.of("get")),
            // SparkAccounts: its cache lists and watches the three objects it made (by label); SparkRbac.ensure reads
            // those the cache lacks and creates the missing ones.
            new Use("", "serviceaccounts", Set.of("get", "list", "watch", "create")),
            new Use("rbac.authorization.k8s.io", "roles", Set.of("get", "list", "watch", "create")),
            new Use("rbac.authorization.k8s.io", "rolebindings", Set.of("get", "list", "watch", "create")));

    private KubeAccess() {}
}
