package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The namespace's {@code spark} service account, its Role and RoleBinding: what a driver needs to run
 * its executors (pods, their Services, ConfigMaps and claims of its own namespace, nothing else).
 * Created when missing; objects already there are left as they are (an admin may have widened them).
 */
public final class SparkRbac {

    private SparkRbac() {}

    /** The three objects, pure. */
    public static List<HasMetadata> objects(String namespace, String account, String managedBy) {
        Map<String, String> labels = Map.of(Labels.MANAGED_BY, managedBy, Labels.PART_OF, Labels.PART_OF_VALUE);
        return List.of(
                new ServiceAccountBuilder().withNewMetadata().withName(account).withNamespace(namespace)
                        .withLabels(labels).endMetadata().build(),
                new RoleBuilder().withNewMetadata().withName(account).withNamespace(namespace).withLabels(labels)
                        .endMetadata()
                        .withRules(new PolicyRuleBuilder().withApiGroups("")
                                .withResources("pods", "services", "configmaps", "persistentvolumeclaims")
                                .withVerbs("get", "list", "watch", "create", "update", "patch", "delete",
                                        "deletecollection")
                                .build())
                        .build(),
                new RoleBindingBuilder().withNewMetadata().withName(account).withNamespace(namespace)
                        .withLabels(labels).endMetadata()
                        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role")
                        .withName(account).endRoleRef()
                        .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(namespace)
                        .endSubject()
                        .build());
    }

    /** Creates what is missing; returns the kinds it created (empty when all were there). */
    public static List<String> ensure(KubernetesClient client, String namespace, String account, String managedBy) {
        List<String> created = new ArrayList<>();
        List<HasMetadata> objects = objects(namespace, account, managedBy);
        // The three reads at once: every launch checks them.
        List<Boolean> missing = objects.parallelStream().map(o -> client.resource(o).get() == null).toList();
        for (int i = 0; i < objects.size(); i++) {
            HasMetadata object = objects.get(i);
            if (missing.get(i)) {
                try {
                    client.resource(object).create();
                    created.add(object.getKind());
                } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                }
            }
        }
        return created;
    }
}
