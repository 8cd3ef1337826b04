package io.lakehouse.engines.kinds.trino;

/** Names and ports of a Trino instance's objects. */
final class TrinoNames {

    static final String APP = "trino";
    static final String WORKER_SUFFIX = "-worker";
    static final String CONFIG_SUFFIX = "-config";
    static final String CATALOG_SUFFIX = "-catalog";
    static final String INTERNAL_SUFFIX = "-internal";
    static final String TLS_SUFFIX = "-tls";
    static final String ACCESS_SUFFIX = "-access";
    static final int HTTP_PORT = 8080;
    static final int HTTPS_PORT = 8443;
    static final String COORDINATOR = "coordinator";
    static final String WORKER = "worker";

    private TrinoNames() {}

    static String workers(String name) {
        return name + WORKER_SUFFIX;
    }

    static String coordinatorConfig(String name) {
        return name + CONFIG_SUFFIX;
    }

    static String workerConfig(String name) {
        return workers(name) + CONFIG_SUFFIX;
    }

    static String catalogConfig(String name) {
        return name + CATALOG_SUFFIX;
    }

    /** The shared secret of internal communication (mandatory once authentication is on). */
    static String internal(String name) {
        return name + INTERNAL_SUFFIX;
    }

    /** The access rules generated from the instance's grants. */
    static String access(String name) {
        return name + ACCESS_SUFFIX;
    }

    static String tls(String name) {
        return name + TLS_SUFFIX;
    }
}
