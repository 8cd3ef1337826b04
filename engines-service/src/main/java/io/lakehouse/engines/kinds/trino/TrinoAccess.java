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
 * ({@code preferred_username}); groups come from the token's {@code groups} claim.
 */
final class TrinoAccess {

    static final String DIR = TrinoConfigMaps.CONFIG_DIR + "/access";
    static final String RULES = "rules.json";
    static final String REFRESH_PERIOD = "10s";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");
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

    static ConfigMap rules(Instance inst, List<Subject> grants, EngineContext ctx, OwnerReference owner) {
        return new ConfigMapBuilder()
                .withMetadata(InstanceObjects.meta(TrinoNames.access(inst.name()), TrinoNames.APP, inst, ctx, "access",
                        owner))
                .withData(Map.of(RULES, render(grants)))
                .build();
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
