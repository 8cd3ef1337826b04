package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.lakehouse.catalog.domain.CatalogKinds;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.notebooks.domain.NotebookKinds;
import io.lakehouse.notebooks.kinds.jupyterhub.HubRbac;
import io.lakehouse.notebooks.reconcile.UserServerPods;
import io.lakehouse.sparkjobs.kube.KubeAccess;
import io.lakehouse.sparkjobs.kube.SparkRbac;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, checked: each service's ClusterRole, as the chart renders it, grants exactly the kinds
 * its code reads and writes with exactly the verbs it uses, nothing more, nothing less. A new kind in a
 * reconciler's KINDS without its rule (the service would fail with 403 on a real cluster) or a rule no
 * code needs fails here.
 *
 * <p>A service that creates Roles must also hold every permission they grant: Kubernetes' RBAC escalation
 * prevention refuses to create (or update) a Role, or a RoleBinding to it, for a caller that lacks one of
 * them (unless it has {@code escalate}/{@code bind}, which would let it grant anything: not wanted). So
 * notebooks-service's ClusterRole also carries the hub's Role rules, and sparkjobs-service's the spark Role's.
 */
class ChartRbacTest {

    /**
     * A reconciler's kinds: watched by the InformerCache (list, watch), read on a cache miss (get) and
     * written by the Applier (create, update; delete on teardown); never patch.
     */
    private static final Set<String> RECONCILED = Set.of("get", "list", "watch", "create", "update", "delete");

    /** access-service's OidcSecrets: get, then create or update, delete on removal; never lists. */
    private static final Set<String> OIDC_SECRETS = Set.of("get", "create", "update", "delete");

    /** The Roles a service creates in the tenants' namespaces: it must hold their rules itself. */
    private static final Map<String, List<PolicyRule>> ROLES_CREATED = Map.of(
            "notebooks-service", HubRbac.RULES,
            "sparkjobs-service", sparkRoleRules());

    /** What each service's code uses, and the rules of the Roles it creates: "group/resource" -> verbs. */
    private static final Map<String, Map<String, Set<String>>> CODE = Map.of(
            "catalog-service", grants(CatalogKinds.WATCHED, RECONCILED),
            "engines-service", grants(InstanceReconciler.KINDS, RECONCILED),
            "access-service", grants(List.of(ResourceKind.SECRET), OIDC_SECRETS),
            // The informer cache and Applier on its kinds; UserServerPods lists the user pods.
            "notebooks-service", merge(grants(NotebookKinds.MANAGED, RECONCILED),
                    Map.of("/pods", new TreeSet<>(UserServerPods.POD_VERBS)), rules(HubRbac.RULES)),
            "sparkjobs-service", merge(uses(KubeAccess.USES), rules(sparkRoleRules())));

    @Test
    void eachClusterRoleGrantsExactlyWhatItsServiceCodeUses() {
        assertThat(rendered()).isEqualTo(new TreeMap<>(CODE));
    }

    /** Spelled out on its own: without these rules the first hub or Spark job of a namespace fails with 403. */
    @Test
    void aServiceThatCreatesRolesHoldsEveryPermissionTheyGrant() {
        Map<String, Map<String, Set<String>>> rendered = rendered();
        ROLES_CREATED.forEach((service, roleRules) -> rules(roleRules).forEach((resource, verbs) ->
                assertThat(rendered.get(service).getOrDefault(resource, Set.of()))
                        .as(service + " on " + resource).containsAll(verbs)));
    }

    @Test
    void eachServiceAccountIsBoundToItsOwnRoleOnly() {
        List<JsonNode> docs = StrictManifests.documents(Helm.render());
        Map<String, String> bindings = new TreeMap<>();
        for (JsonNode b : ChartRenderTest.of(docs, "ClusterRoleBinding")) {
            assertThat(b.path("subjects")).hasSize(1);
            JsonNode subject = b.path("subjects").get(0);
            bindings.put(subject.path("namespace").asText() + "/" + subject.path("name").asText(), b.path("roleRef").path("name").asText());
        }
        assertThat(bindings).isEqualTo(Map.of(
                "lakehouse-system/access-service", "lh-access-service",
                "lakehouse-system/catalog-service", "lh-catalog-service",
                "lakehouse-system/engines-service", "lh-engines-service",
                "lakehouse-system/notebooks-service", "lh-notebooks-service",
                "lakehouse-system/sparkjobs-service", "lh-sparkjobs-service"));
    }

    /** The chart's ClusterRoles as rendered with the default values: service -> "group/resource" -> verbs. */
    private static Map<String, Map<String, Set<String>>> rendered() {
        Map<String, Map<String, Set<String>>> rendered = new TreeMap<>();
        for (JsonNode role : ChartRenderTest.of(StrictManifests.documents(Helm.render()), "ClusterRole")) {
            String service = role.path("metadata").path("labels").path("app.kubernetes.io/name").asText();
            Map<String, Set<String>> grants = rendered.computeIfAbsent(service, s -> new TreeMap<>());
            for (JsonNode rule : role.path("rules")) {
                for (JsonNode group : rule.path("apiGroups")) {
                    for (JsonNode resource : rule.path("resources")) {
                        Set<String> verbs = grants.computeIfAbsent(group.asText() + "/" + resource.asText(), k -> new TreeSet<>());
                        rule.path("verbs").forEach(v -> verbs.add(v.asText()));
                    }
                }
            }
        }
        return rendered;
    }

    /** The rules of the spark Role sparkjobs-service creates in a namespace (SparkRbac's pure builder). */
    private static List<PolicyRule> sparkRoleRules() {
        for (HasMetadata object : SparkRbac.objects("any", "spark", "sparkjobs-service")) {
            if (object instanceof Role role) {
                return role.getRules();
            }
        }
        throw new AssertionError("SparkRbac builds no Role");
    }

    private static Map<String, Set<String>> rules(List<PolicyRule> rules) {
        Map<String, Set<String>> grants = new TreeMap<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    grants.computeIfAbsent(group + "/" + resource, k -> new TreeSet<>()).addAll(rule.getVerbs());
                }
            }
        }
        return grants;
    }

    private static Map<String, Set<String>> uses(List<KubeAccess.Use> uses) {
        Map<String, Set<String>> grants = new TreeMap<>();
        uses.forEach(u -> grants.computeIfAbsent(u.group() + "/" + u.resource(), k -> new TreeSet<>()).addAll(u.verbs()));
        return grants;
    }

    @SafeVarargs
    private static Map<String, Set<String>> merge(Map<String, Set<String>>... parts) {
        Map<String, Set<String>> merged = new TreeMap<>();
        for (Map<String, Set<String>> part : parts) {
            part.forEach((resource, verbs) -> merged.computeIfAbsent(resource, k -> new TreeSet<>()).addAll(verbs));
        }
        return merged;
    }

    private static Map<String, Set<String>> grants(List<ResourceKind> kinds, Set<String> verbs) {
        Map<String, Set<String>> grants = new TreeMap<>();
        for (ResourceKind kind : kinds) {
            String group = kind.apiVersion().contains("/") ? kind.apiVersion().substring(0, kind.apiVersion().indexOf('/')) : "";
            grants.put(group + "/" + kind.plural(), new TreeSet<>(verbs));
        }
        return grants;
    }
}
