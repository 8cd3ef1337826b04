package io.lakehouse.notebooks.kinds.jupyterhub;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which user-server variables no longer match the bound instances. A user server reads its
 * environment once, when it starts: after a referenced instance is deleted or recreated, servers
 * started before keep the old values, while servers started after get the current ones (Secrets by
 * reference, the hub's configuration rewritten). The hub's status says which variables are stale, so
 * users know to restart their servers; deleting a referenced instance stays allowed.
 */
public final class StaleVariables {

    public static final String CONDITION = "VariablesCurrent";

    /** The variables each reference gives, as the status names them. */
    static final Map<String, List<String>> VARIABLES = Map.of(
            "catalog", List.of("POLARIS_URI", "POLARIS_WAREHOUSE", "POLARIS_CREDENTIAL", "POLARIS_SCOPE"),
            "trino", List.of("TRINO_HOST"),
            "sparkConnect", List.of("SPARK_REMOTE"),
            "mlflow", List.of("MLFLOW_TRACKING_URI"));

    private StaleVariables() {}

    /**
     * What the service knows of one reference.
     *
     * @param present whether the instance exists (known and not deleted)
     * @param changedAt when it last appeared (created or recreated), or when it went away; null if never seen
     */
    public record Binding(boolean present, Instant changedAt) {}

    /** The condition: status True/False, a stable reason, a message naming the variables. */
    public record Result(boolean current, String reason, String message, List<String> staleVariables) {}

    /**
     * @param refs the hub's references
     * @param bindings what the service knows of each set reference, by field ({@code catalog}, ...)
     * @param serverStarts when each running user server started
     */
    public static Result of(LakehouseRefs refs, Map<String, Binding> bindings, List<Instant> serverStarts) {
        List<String> stale = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        Map<String, String> why = new LinkedHashMap<>();
        refs.set().forEach((field, ref) -> {
            Binding b = bindings.getOrDefault(field, new Binding(false, null));
            List<String> vars = VARIABLES.get(field);
            String what = ref.kind() + " '" + ref.name() + "'";
            if (!b.present()) {
                missing.addAll(vars);
                why.put(what, "is gone: new servers start without " + String.join(", ", vars));
            } else if (b.changedAt() != null && serverStarts.stream().anyMatch(s -> s.isBefore(b.changedAt()))) {
                long count = serverStarts.stream().filter(s -> s.isBefore(b.changedAt())).count();
                stale.addAll(vars);
                why.put(what, "changed after " + count + " running server(s) started, which keep stale or no "
                        + String.join(", ", vars) + " (restart them)");
            }
        });
        if (why.isEmpty()) {
            return new Result(true, "Current", "user servers have the current variables of every bound instance",
                    List.of());
        }
        List<String> all = new ArrayList<>(missing);
        all.addAll(stale);
        String message = String.join("; ", why.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList());
        return new Result(false, missing.isEmpty() ? "ServersStale" : "InstanceMissing", message, List.copyOf(all));
    }
}
