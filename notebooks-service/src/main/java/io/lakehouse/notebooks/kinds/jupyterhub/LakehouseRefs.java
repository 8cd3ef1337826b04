package io.lakehouse.notebooks.kinds.jupyterhub;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Lakehouse tab: instances of the same namespace pre-wired into notebooks, each optional and
 * named by its instance name.
 *
 * @param catalog an {@code iceberg-catalog}: {@code POLARIS_*}
 * @param trino a {@code trino}: {@code TRINO_HOST}
 * @param sparkConnect a {@code spark-connect}: {@code SPARK_REMOTE}
 * @param mlflow an {@code mlflow}: {@code MLFLOW_TRACKING_URI}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LakehouseRefs(String catalog, String trino, String sparkConnect, String mlflow) {

    public static final LakehouseRefs NONE = new LakehouseRefs(null, null, null, null);

    /** The references that are set, by the kind they name, in a fixed order (field name → instance). */
    public Map<String, Ref> set() {
        Map<String, Ref> refs = new LinkedHashMap<>();
        put(refs, "catalog", "iceberg-catalog", catalog);
        put(refs, "trino", "trino", trino);
        put(refs, "sparkConnect", "spark-connect", sparkConnect);
        put(refs, "mlflow", "mlflow", mlflow);
        return refs;
    }

    private static void put(Map<String, Ref> refs, String field, String kind, String name) {
        if (name != null) {
            refs.put(field, new Ref(kind, name));
        }
    }

    /** One reference: the kind it must name and the instance name. */
    public record Ref(String kind, String name) {}
}
