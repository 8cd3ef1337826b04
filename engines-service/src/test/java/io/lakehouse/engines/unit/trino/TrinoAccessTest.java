package io.lakehouse.engines.unit.trino;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.security.Subject;
import io.lakehouse.engines.kinds.trino.TrinoKind;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Trino's file-based access control generated from grants: the rules file's shape is the one Trino
 * documents (trino.io docs, security/file-system-access-control: catalog rules {user, role, group,
 * catalog, allow in all|read-only|none}, query rules {user, role, group, queryOwner, allow subset of
 * execute|view|kill}; first match wins, no match denies), and evaluated that way it gives access to
 * holders of a grant only.
 */
class TrinoAccessTest {

    private static final TrinoKind KIND = new TrinoKind();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> CATALOG_RULE_FIELDS = Set.of("user", "role", "group", "catalog", "allow");
    private static final Set<String> QUERY_RULE_FIELDS = Set.of("user", "role", "group", "queryOwner", "allow");
    private static final List<Subject> GRANTS = List.of(Subject.user("alice"), Subject.user("bob.smith@example.org"),
            Subject.group("data-team"), Subject.group("/org/analysts"));

    private static JsonNode rules(List<Subject> grants) {
        return readRules(accessMap(grants, Map.of()));
    }

    private static ConfigMap accessMap(List<Subject> grants, Map<String, List<String>> members) {
        Instance inst = TrinoObjectsTest.defaults();
        List<HasMetadata> objects = KIND.accessObjects(inst, grants, members, EngineFixtures.context(),
                EngineFixtures.owner());
        assertThat(objects).singleElement().satisfies(o -> assertThat(o.getMetadata().getName()).isEqualTo("sql-access"));
        return (ConfigMap) objects.get(0);
    }

    private static JsonNode readRules(ConfigMap access) {
        try {
            return JSON.readTree(access.getData().get("rules.json"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Trino's file group provider: {@code group:user1,user2} lines, a user's groups are those naming it. */
    private static Map<String, Set<String>> groupsByUser(String file) {
        Map<String, Set<String>> groups = new java.util.HashMap<>();
        for (String line : file.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split(":");
            assertThat(parts).as("one ':' per line: %s", line).hasSize(2);
            for (String user : parts[1].split(",")) {
                groups.computeIfAbsent(user.trim(), u -> new java.util.HashSet<>()).add(parts[0].trim());
            }
        }
        return groups;
    }

    @Test
    void theRulesFileHasTrinosDocumentedShape() throws Exception {
        JsonNode rules = rules(GRANTS);
        assertThat(fieldNames(rules)).containsExactlyInAnyOrder("catalogs", "queries");
        for (JsonNode rule : rules.path("catalogs")) {
            assertThat(fieldNames(rule)).isSubsetOf(CATALOG_RULE_FIELDS).contains("allow");
            assertThat(rule.path("allow").asText()).isIn("all", "read-only", "none");
            rule.fields().forEachRemaining(f -> {
                if (!f.getKey().equals("allow")) {
                    Pattern.compile(f.getValue().asText()); // every other field is a Java regular expression
                }
            });
        }
        for (JsonNode rule : rules.path("queries")) {
            assertThat(fieldNames(rule)).isSubsetOf(QUERY_RULE_FIELDS).contains("allow");
            assertThat(rule.path("allow").isArray()).isTrue();
            rule.path("allow").forEach(a -> assertThat(a.asText()).isIn("execute", "view", "kill"));
        }
    }

    @Test
    void holdersOfAGrantUseTheLakehouseCatalogAndNobodyElseUsesAnything() throws Exception {
        JsonNode rules = rules(GRANTS);
        assertThat(catalogAccess(rules, "alice", Set.of(), "lakehouse")).isEqualTo("all");
        assertThat(catalogAccess(rules, "alice", Set.of(), "system")).isEqualTo("read-only");
        assertThat(catalogAccess(rules, "bob.smith@example.org", Set.of(), "lakehouse")).isEqualTo("all");
        assertThat(catalogAccess(rules, "carol", Set.of("data-team"), "lakehouse")).isEqualTo("all");
        assertThat(catalogAccess(rules, "dave", Set.of("/org/analysts"), "lakehouse")).isEqualTo("all");
        // Names are matched exactly, not as patterns: '.' is no wildcard, no prefix matches.
        assertThat(catalogAccess(rules, "bobXsmith@example.org", Set.of(), "lakehouse")).isEqualTo("none");
        assertThat(catalogAccess(rules, "alice2", Set.of(), "lakehouse")).isEqualTo("none");
        assertThat(catalogAccess(rules, "mallory", Set.of("data-team-2", "org"), "lakehouse")).isEqualTo("none");
        assertThat(catalogAccess(rules, "mallory", Set.of(), "system")).isEqualTo("none");
        assertThat(catalogAccess(rules, "alice", Set.of(), "other")).isEqualTo("none");
        assertThat(mayExecute(rules, "alice", Set.of())).isTrue();
        assertThat(mayExecute(rules, "carol", Set.of("data-team"))).isTrue();
        assertThat(mayExecute(rules, "mallory", Set.of())).isFalse();
    }

    @Test
    void withoutGrantsNobodyMayDoAnything() throws Exception {
        JsonNode rules = rules(List.of());
        assertThat(catalogAccess(rules, "alice", Set.of("platform-admins"), "lakehouse")).isEqualTo("none");
        assertThat(catalogAccess(rules, "alice", Set.of(), "system")).isEqualTo("none");
        assertThat(rules.path("queries").isArray()).isTrue();
        assertThat(mayExecute(rules, "alice", Set.of())).isFalse();
    }

    /**
     * Trino takes a user's groups from the group file (no groups from tokens): a member of a granted
     * group, as access-service saw it, is allowed by the rules; the file lists granted groups only, and
     * a name the file format cannot carry is left out rather than breaking the file.
     */
    @Test
    void membersOfAGrantedGroupAreAllowedThroughTheGroupFile() {
        Map<String, List<String>> members = Map.of(
                "/data-team", List.of("bob", "carol"),
                "/org/analysts", List.of("dave", "eve,admin", "frank:x"),
                "/a:b", List.of("grace"));
        List<Subject> grants = List.of(Subject.user("alice"), Subject.group("/a:b"), Subject.group("/data-team"),
                Subject.group("/empty"), Subject.group("/org/analysts"));
        ConfigMap access = accessMap(grants, members);
        assertThat(access.getData().get("groups.txt")).isEqualTo("""
                /data-team:bob,carol
                /org/analysts:dave
                """);
        JsonNode rules = readRules(access);
        Map<String, Set<String>> groupsOf = groupsByUser(access.getData().get("groups.txt"));
        assertThat(catalogAccess(rules, "bob", groupsOf.getOrDefault("bob", Set.of()), "lakehouse")).isEqualTo("all");
        assertThat(mayExecute(rules, "dave", groupsOf.getOrDefault("dave", Set.of()))).isTrue();
        // Seen in a group without a grant, or not seen at all: nothing.
        assertThat(catalogAccess(rules, "grace", groupsOf.getOrDefault("grace", Set.of()), "lakehouse"))
                .isEqualTo("none");
        assertThat(catalogAccess(rules, "mallory", groupsOf.getOrDefault("mallory", Set.of()), "lakehouse"))
                .isEqualTo("none");
        // A revoked group grant takes its members' lines with it.
        ConfigMap revoked = accessMap(List.of(Subject.user("alice"), Subject.group("/org/analysts")), members);
        assertThat(revoked.getData().get("groups.txt")).isEqualTo("/org/analysts:dave\n");
        assertThat(catalogAccess(readRules(revoked), "bob",
                groupsByUser(revoked.getData().get("groups.txt")).getOrDefault("bob", Set.of()), "lakehouse"))
                .isEqualTo("none");
    }

    /** The coordinator maps users to groups from the group file and accepts platform tokens only. */
    @Test
    void theCoordinatorReadsGroupsFromTheFileAndRequiresThePlatformAudience() {
        Instance inst = TrinoObjectsTest.defaults();
        ConfigMap config = (ConfigMap) KIND.objects(inst, EngineFixtures.context(), EngineFixtures.owner()).get(0);
        // Trino's file group provider (trino.io docs, security/group-file), next to the rules it feeds.
        assertThat(config.getData().get("group-provider.properties")).isEqualTo("""
                group-provider.name=file
                file.group-file=/etc/trino/access/groups.txt
                file.refresh-period=10s
                """);
        assertThat(config.getData().get("config.properties"))
                .contains("http-server.authentication.jwt.required-audience=lakehouse-api\n");
    }

    /** The coordinator reads the rules from the whole-directory mount and re-reads them while running. */
    @Test
    void theCoordinatorUsesTheRulesAndRefreshesThem() {
        Instance inst = TrinoObjectsTest.defaults();
        List<HasMetadata> objects = KIND.objects(inst, EngineFixtures.context(), EngineFixtures.owner());
        ConfigMap config = (ConfigMap) objects.get(0);
        assertThat(config.getData().get("access-control.properties")).isEqualTo("""
                access-control.name=file
                security.config-file=/etc/trino/access/rules.json
                security.refresh-period=10s
                """);
        // Trino has no groups from authentication any more: a real Trino refuses the property.
        assertThat(config.getData().get("config.properties")).doesNotContain("groups-field");
        Deployment coordinator = (Deployment) objects.get(3);
        Volume access = coordinator.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals("access")).findFirst().orElseThrow();
        assertThat(access.getConfigMap().getName()).isEqualTo("sql-access");
        assertThat(coordinator.getSpec().getTemplate().getSpec().getContainers().get(0).getVolumeMounts())
                .filteredOn(m -> m.getName().equals("access")).singleElement().satisfies(m -> {
                    assertThat(m.getMountPath()).isEqualTo("/etc/trino/access");
                    assertThat(m.getSubPath()).isNull();
                });
    }

    /** Trino's evaluation of catalog rules: the first rule whose every pattern matches decides. */
    private static String catalogAccess(JsonNode rules, String user, Set<String> groups, String catalog) {
        for (JsonNode rule : rules.path("catalogs")) {
            if (matches(rule, user, groups) && full(rule, "catalog", catalog)) {
                return rule.path("allow").asText();
            }
        }
        return "none";
    }

    private static boolean mayExecute(JsonNode rules, String user, Set<String> groups) {
        for (JsonNode rule : rules.path("queries")) {
            if (matches(rule, user, groups)) {
                return rule.path("allow").toString().contains("\"execute\"");
            }
        }
        return false;
    }

    private static boolean matches(JsonNode rule, String user, Set<String> groups) {
        boolean group = !rule.has("group") || groups.stream().anyMatch(g -> full(rule, "group", g));
        return full(rule, "user", user) && group;
    }

    private static boolean full(JsonNode rule, String field, String value) {
        return !rule.has(field) || Pattern.compile(rule.path(field).asText()).matcher(value).matches();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            names.add(it.next());
        }
        return names;
    }
}
