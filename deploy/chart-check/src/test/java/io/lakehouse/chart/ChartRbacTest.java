package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.catalog.domain.CatalogKinds;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.kube.ResourceKind;
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
 */
class ChartRbacTest {

    /**
     * A reconciler's kinds: watched by the InformerCache (list, watch), read on a cache miss (get) and
     * written by the Applier (create, update; delete on teardown); never patch.
     */
    private static final Set<String> RECONCILED = Set.of("get", "list", "watch", "create", "update", "delete");

    /** access-service's OidcSecrets: get, then create or update, delete on removal; never lists. */
    private static final Set<String> OIDC_SECRETS = Set.of("get", "create", "update", "delete");

    /** What each service's code uses: "group/resource" -> verbs. */
    private static final Map<String, Map<String, Set<String>>> CODE = Map.of(
            "catalog-service", grants(CatalogKinds.WATCHED, RECONCILED),
            "engines-service", grants(InstanceReconciler.KINDS, RECONCILED),
            "access-service", grants(List.of(ResourceKind.SECRET), OIDC_SECRETS));

    @Test
    void eachClusterRoleGrantsExactlyWhatItsServiceCodeUses() {
        List<JsonNode> docs = StrictManifests.documents(Helm.render());
        Map<String, Map<String, Set<String>>> rendered = new TreeMap<>();
        for (JsonNode role : ChartRenderTest.of(docs, "ClusterRole")) {
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
        assertThat(rendered).isEqualTo(new TreeMap<>(CODE));
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
                "lakehouse-system/engines-service", "lh-engines-service"));
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
