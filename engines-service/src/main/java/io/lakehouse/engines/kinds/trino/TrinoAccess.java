package io.lakehouse.engines.kinds.trino;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.security.Subject;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.PropertiesFiles;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Trino's own access control, generated from the instance's grants: file-based system access
 * control whose rules file lives in the {@code <name>-access} ConfigMap. Trino re-reads it every
 * {@link #REFRESH_PERIOD} and the kubelet updates the mounted file when the ConfigMap changes, so a
 * grant added or removed applies to the running coordinator (no restart). Users are Trino principals
 * ({@code preferred_username}). Trino reads no groups from tokens (trinodb/trino#15669), so a file group
 * provider maps users to the granted groups: {@link #GROUPS} in the same ConfigMap lists, for each group
 * holding a grant, the users access-service last saw in that group (their token's {@code groups}).
 */
final class TrinoAccess {

    static final String DIR = TrinoConfigMaps.CONFIG_DIR + "/access";
    static final String RULES = "rules.json";
    static final String GROUPS = "groups.txt";
    static final String REFRESH_PERIOD = "10s";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern FILE_GROUP = Pattern.compile("[^:\\s]+");
    private static final Pattern FILE_USER = Pattern.compile("[^:,\\s]+");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TrinoAccess() {}

    /** {@code access-control.properties} of the coordinator. */
    static String properties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("access-control.name", "file");
        props.put("security.config-file", DIR + "/" + RULES);
        props.put("security.refresh-period", REFRESH_PERIOD);
        return PropertiesFiles.render(props);
    }

    /** {@code group-provider.properties} of the coordinator: the group file, re-read like the rules. */
    static String groupProviderProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("group-provider.name", "file");
        props.put("file.group-file", DIR + "/" + GROUPS);
        props.put("file.refresh-period", REFRESH_PERIOD);
        return PropertiesFiles.render(props);
    }

    static ConfigMap rules(Instance inst, List<Subject> grants, Map<String, List<String>> groupMembers,
            EngineContext ctx, OwnerReference owner) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(RULES, render(grants));
        data.put(GROUPS, groupFile(grants, groupMembers));
        return new ConfigMapBuilder()
                .withMetadata(InstanceObjects.meta(TrinoNames.access(inst.name()), TrinoNames.APP, inst, ctx, "access",
                        owner))
                .withData(data)
                .build();
    }

    /**
     * One {@code group:user1,user2} line per granted group with members, in grant order. A name the
     * format cannot carry (a ':' in a group, a ',' or ':' in a user, any whitespace) is left out: Trino
     * would reject the whole file, and a missing member is only denied, which is the safe side.
     */
    static String groupFile(List<Subject> grants, Map<String, List<String>> groupMembers) {
        StringBuilder file = new StringBuilder();
        for (Subject s : grants) {
            if (s.type() != Subject.Type.GROUP || !FILE_GROUP.matcher(s.name()).matches()) {
                continue;
            }
            List<String> users = groupMembers.getOrDefault(s.name(), List.of()).stream()
                    .filter(u -> FILE_USER.matcher(u).matches()).toList();
            if (!users.isEmpty()) {
                file.append(s.name()).append(':').append(String.join(",", users)).append('\n');
            }
        }
        return file.toString();
    }

    /**
     * First match wins, no match is denied: each holder of a grant may use the {@code lakehouse}
     * catalog fully, read the {@code system} catalog and run queries (everyone may always see and
     * kill their own); nobody else may use any catalog or run anything. Schema and table rules are
     * left out, which Trino reads as "no further restriction" within an allowed catalog.
     */
    static String render(List<Subject> grants) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode catalogs = f.arrayNode();
        ArrayNode queries = f.arrayNode();
        for (Subject s : grants) {
            catalogs.add(rule(s).put("catalog", TrinoConfigMaps.CATALOG).put("allow", "all"));
            catalogs.add(rule(s).put("catalog", "system").put("allow", "read-only"));
            ObjectNode query = rule(s);
            query.putArray("allow").add("execute");
            queries.add(query);
        }
        catalogs.add(f.objectNode().put("catalog", ".*").put("allow", "none"));
        ObjectNode root = f.objectNode();
        root.set("catalogs", catalogs);
        root.set("queries", queries);
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode rule(Subject s) {
        String field = s.type() == Subject.Type.USER ? "user" : "group";
        return JsonNodeFactory.instance.objectNode().put(field, exactly(s.name()));
    }

    /** Trino matches these fields as Java regular expressions: a name must match only itself. */
    static String exactly(String name) {
        return PLAIN.matcher(name).matches() ? name : Pattern.quote(name);
    }
}
