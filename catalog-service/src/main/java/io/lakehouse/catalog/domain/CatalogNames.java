package io.lakehouse.catalog.domain;

/** Every Kubernetes name derived from an instance name, in one place. */
public final class CatalogNames {

    public static final String ROOT_SUFFIX = "-instance";
    public static final String ROOT_PRINCIPAL_SUFFIX = "-root-principal";
    public static final String TOKEN_BROKER_SUFFIX = "-token-broker";
    public static final String S3_SUFFIX = "-s3";
    public static final String DATABASE_SUFFIX = "-db";
    public static final String REALM_INIT_SUFFIX = "-realm-init";
    public static final String CATALOG_INIT_SUFFIX = "-catalog-init";
    public static final String CONFIG_SUFFIX = "-config";
    public static final int HTTP_PORT = 8181;
    public static final int MANAGEMENT_PORT = 8182;

    private CatalogNames() {}

    public static String root(String name) {
        return name + ROOT_SUFFIX;
    }

    /** Deployment, Service and Ingress of the Polaris server. */
    public static String server(String name) {
        return name;
    }

    /** Polaris' application.properties. */
    public static String config(String name) {
        return name + CONFIG_SUFFIX;
    }

    public static String rootPrincipalSecret(String name) {
        return name + ROOT_PRINCIPAL_SUFFIX;
    }

    public static String tokenBrokerSecret(String name) {
        return name + TOKEN_BROKER_SUFFIX;
    }

    public static String s3Secret(String name) {
        return name + S3_SUFFIX;
    }

    public static String database(String name) {
        return name + DATABASE_SUFFIX;
    }

    /** Written by CloudNativePG: user, password and JDBC URL of the application database. */
    public static String databaseAppSecret(String name) {
        return database(name) + "-app";
    }

    public static String realmInitJob(String name) {
        return name + REALM_INIT_SUFFIX;
    }

    public static String catalogInit(String name) {
        return name + CATALOG_INIT_SUFFIX;
    }

    public static String internalUri(String name, String namespace) {
        return "http://" + server(name) + "." + namespace + ".svc:" + HTTP_PORT + "/api/catalog";
    }

    public static String publicHost(String name, String namespace, String domain) {
        return name + "-" + namespace + "." + domain;
    }

    public static String publicUri(String name, String namespace, String domain) {
        return "https://" + publicHost(name, namespace, domain) + "/api/catalog";
    }
}
