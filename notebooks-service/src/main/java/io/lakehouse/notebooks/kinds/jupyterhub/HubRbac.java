package io.lakehouse.notebooks.kinds.jupyterhub;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.List;

/**
 * The hub's identity for KubeSpawner, with only what it does in its own namespace: start, watch and
 * stop user pods, make (and find) their volumes, read events for the spawn progress. No Secrets or
 * Services (neither internal SSL nor per-user Services is on), and no deletion of volumes: they are
 * the users' data.
 */
public final class HubRbac {

    /** The hub's Role; public for the chart's RBAC check (whoever creates a Role must hold its rules). */
    public static final List<PolicyRule> RULES = List.of(
            rule(List.of("pods"), List.of("get", "list", "watch", "create", "delete")),
            rule(List.of("persistentvolumeclaims"), List.of("get", "create")),
            rule(List.of("events"), List.of("get", "list", "watch")));

    private HubRbac() {}

    static ServiceAccount serviceAccount(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return new ServiceAccountBuilder()
                .withMetadata(HubMeta.meta(HubNames.hub(inst.name()), inst, ctx, HubNames.HUB, owner))
                .build();
    }

    static Role role(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return new RoleBuilder()
                .withMetadata(HubMeta.meta(HubNames.hub(inst.name()), inst, ctx, HubNames.HUB, owner))
                .withRules(RULES)
                .build();
    }

    static RoleBinding roleBinding(HubInstance inst, HubContext ctx, OwnerReference owner) {
        String name = HubNames.hub(inst.name());
        return new RoleBindingBuilder()
                .withMetadata(HubMeta.meta(name, inst, ctx, HubNames.HUB, owner))
                .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name).endRoleRef()
                .addNewSubject().withKind("ServiceAccount").withName(name).withNamespace(inst.namespace()).endSubject()
                .build();
    }

    private static PolicyRule rule(List<String> resources, List<String> verbs) {
        return new PolicyRuleBuilder().withApiGroups("").withResources(resources).withVerbs(verbs).build();
    }
}
