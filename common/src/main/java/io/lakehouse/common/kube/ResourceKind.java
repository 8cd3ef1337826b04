package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * A kind of object the suite manages: a built-in type, or a custom resource addressed by its
 * definition (so it works without API discovery, which the mock server does not fully answer).
 */
public record ResourceKind(String apiVersion, String kind, String plural, Class<? extends HasMetadata> type) {

    public static final ResourceKind CONFIG_MAP = typed("v1", "ConfigMap", "configmaps", ConfigMap.class);
    public static final ResourceKind SECRET = typed("v1", "Secret", "secrets", Secret.class);
    public static final ResourceKind SERVICE = typed("v1", "Service", "services", Service.class);
    public static final ResourceKind SERVICE_ACCOUNT =
            typed("v1", "ServiceAccount", "serviceaccounts", ServiceAccount.class);
    public static final ResourceKind PVC =
            typed("v1", "PersistentVolumeClaim", "persistentvolumeclaims", PersistentVolumeClaim.class);
    public static final ResourceKind DEPLOYMENT = typed("apps/v1", "Deployment", "deployments", Deployment.class);
    public static final ResourceKind STATEFUL_SET = typed("apps/v1", "StatefulSet", "statefulsets", StatefulSet.class);
    public static final ResourceKind JOB = typed("batch/v1", "Job", "jobs", Job.class);
    public static final ResourceKind INGRESS = typed("networking.k8s.io/v1", "Ingress", "ingresses", Ingress.class);
    public static final ResourceKind NETWORK_POLICY =
            typed("networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", NetworkPolicy.class);
    public static final ResourceKind ROLE = typed("rbac.authorization.k8s.io/v1", "Role", "roles", Role.class);
    public static final ResourceKind ROLE_BINDING =
            typed("rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", RoleBinding.class);
    /** CloudNativePG database cluster. */
    public static final ResourceKind CNPG_CLUSTER = custom("postgresql.cnpg.io/v1", "Cluster", "clusters");

    private static ResourceKind typed(String apiVersion, String kind, String plural, Class<? extends HasMetadata> type) {
        return new ResourceKind(apiVersion, kind, plural, type);
    }

    public static ResourceKind custom(String apiVersion, String kind, String plural) {
        return new ResourceKind(apiVersion, kind, plural, GenericKubernetesResource.class);
    }

    public String key() {
        return apiVersion + "/" + kind;
    }

    public static String keyOf(HasMetadata object) {
        return object.getApiVersion() + "/" + object.getKind();
    }

    public boolean isCustom() {
        return type == GenericKubernetesResource.class;
    }

    public ResourceDefinitionContext context() {
        int slash = apiVersion.indexOf('/');
        return new ResourceDefinitionContext.Builder()
                .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                .withVersion(apiVersion.substring(slash + 1))
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(true)
                .build();
    }

    /** Operations on this kind, typed as {@link HasMetadata}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public MixedOperation<HasMetadata, KubernetesResourceList<HasMetadata>, Resource<HasMetadata>> operations(KubernetesClient client) {
        if (isCustom()) {
            return (MixedOperation) client.genericKubernetesResources(context());
        }
        return (MixedOperation) client.resources(type);
    }
}
