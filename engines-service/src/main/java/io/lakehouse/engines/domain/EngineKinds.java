package io.lakehouse.engines.domain;

import io.lakehouse.common.problem.ApiException;
import io.lakehouse.engines.kinds.mlflow.MlflowKind;
import io.lakehouse.engines.kinds.nifi.NifiKind;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind;
import io.lakehouse.engines.kinds.trino.TrinoKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The kinds this service offers, by their URL name. */
public final class EngineKinds {

    private static final Map<String, EngineKind> KINDS = index(List.of(new TrinoKind(), new SparkConnectKind(), new MlflowKind(),
            new NifiKind()));

    private EngineKinds() {}

    public static List<EngineKind> all() {
        return List.copyOf(KINDS.values());
    }

    public static Optional<EngineKind> find(String kind) {
        return Optional.ofNullable(KINDS.get(kind));
    }

    /** The kind of a stored instance; an unknown one is a bug, not user input. */
    public static EngineKind of(String kind) {
        return find(kind).orElseThrow(() -> new IllegalStateException("unknown engine kind " + kind));
    }

    /** The kind named in a URL, or 404. */
    public static EngineKind fromPath(String kind) {
        return find(kind).orElseThrow(() -> ApiException.notFound("no instance kind '" + kind + "' here; kinds: "
                + String.join(", ", KINDS.keySet())));
    }

    private static Map<String, EngineKind> index(List<EngineKind> kinds) {
        Map<String, EngineKind> byName = new LinkedHashMap<>();
        kinds.forEach(k -> byName.put(k.kind(), k));
        return byName;
    }
}
