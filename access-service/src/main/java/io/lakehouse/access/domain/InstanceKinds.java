package io.lakehouse.access.domain;

import java.util.Set;

/** The templates of the platform, and which of them people open in a browser (and so take grants). */
public final class InstanceKinds {

    private static final Set<String> WITH_GRANTS = Set.of("trino", "jupyterhub", "mlflow", "nifi");
    private static final Set<String> WITHOUT_GRANTS = Set.of("iceberg-catalog", "spark-connect");

    private InstanceKinds() {}

    public static boolean isKnown(String kind) {
        return WITH_GRANTS.contains(kind) || WITHOUT_GRANTS.contains(kind);
    }

    public static boolean takesGrants(String kind) {
        return WITH_GRANTS.contains(kind);
    }
}
