package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.ResourceKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The namespace's {@code spark} service account, its Role and RoleBinding: what a driver needs to run
 * its executors (pods, their Services, ConfigMaps and claims of its own namespace, nothing else).
 * Created when missing; objects already there are left as they are (an admin may have widened them).
 */
public final class SparkRbac {

    /** The kinds of {@link #objects}: the informer cache that answers "are they there?" watches these. */
    public static final List<ResourceKind> KINDS =
            List.of(ResourceKind.SERVICE_ACCOUNT, ResourceKind.ROLE, ResourceKind.ROLE_BINDING);

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

    /**
     * Creates what is missing; returns the kinds it created (empty when all were there). An object the
     * synced {@code cache} holds (ours, watched) costs no call; any other is read from the API server (an
     * admin's object without our label, one the cache has not seen yet) and created when absent.
     */
    public static List<String> ensure(KubernetesClient client, InformerCache cache, String namespace, String account,
            String managedBy) {
        List<String> created = new ArrayList<>();
        for (HasMetadata object : objects(namespace, account, managedBy)) {
            if (cache.synced(object) && cache.get(object).isPresent()) {
                continue;
            }
            if (client.resource(object).get() != null) {
                continue;
            }
            try {
                client.resource(object).create();
                created.add(object.getKind());
            } catch (KubernetesClientException e) {
                // 409: another replica (or an admin) made it meanwhile.
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
        return created;
    }
}
