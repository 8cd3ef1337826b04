package io.lakehouse.notebooks.kinds.jupyterhub;

/**
 * Names and ports of a hub's objects. Every name starts with the instance name (never the upstream
 * chart's fixed {@code hub}, {@code proxy-public}, {@code hub-db-dir}); user pods and volumes carry it
 * too, so nothing clashes with another hub or instance of the namespace.
 */
public final class HubNames {

    public static final String APP = "jupyterhub";
    public static final String HUB = "hub";
    public static final String PROXY = "proxy";
    public static final String ROOT_SUFFIX = "-instance";
    public static final String HUB_SUFFIX = "-hub";
    public static final String CONFIG_SUFFIX = "-hub-config";
    public static final String DB_SUFFIX = "-hub-db";
    public static final String SECRET_SUFFIX = "-hub-secret";
    public static final String ACCESS_SUFFIX = "-access";
    public static final String PROXY_API_SUFFIX = "-proxy-api";
    public static final String PROXY_SUFFIX = "-proxy";
    public static final String OIDC_SUFFIX = "-oidc";
    public static final String S3_SUFFIX = "-s3";
    /** The managed-by label of what KubeSpawner makes (user pods and volumes). */
    public static final String SPAWNER = "kubespawner";
    /** The hub's API and pages (hub_bind_url). */
    public static final int HUB_PORT = 8081;
    /** configurable-http-proxy: public side and REST API. */
    public static final int PROXY_PORT = 8000;
    public static final int PROXY_API_PORT = 8001;
    /** Jupyter servers listen here (KubeSpawner's default port). */
    public static final int USER_PORT = 8888;
    /** Keys of the {@code <name>-oidc} Secret access-service writes. */
    public static final String OIDC_CLIENT_ID = "clientId";
    public static final String OIDC_CLIENT_SECRET = "clientSecret";
    public static final String OIDC_ISSUER = "issuer";

    private HubNames() {}

    /** The hub's Deployment, Service, ServiceAccount, Role and RoleBinding. */
    public static String hub(String name) {
        return name + HUB_SUFFIX;
    }

    public static String config(String name) {
        return name + CONFIG_SUFFIX;
    }

    /** The hub database's volume (JupyterHub's sqlite file: users, servers, tokens). */
    public static String database(String name) {
        return name + DB_SUFFIX;
    }

    /** Cookie secret and proxy token, generated once. */
    public static String secret(String name) {
        return name + SECRET_SUFFIX;
    }

    /** Who may sign in (from the instance's grants). */
    public static String access(String name) {
        return name + ACCESS_SUFFIX;
    }

    public static String proxy(String name) {
        return name + PROXY_SUFFIX;
    }

    public static String proxyApi(String name) {
        return name + PROXY_API_SUFFIX;
    }

    public static String oidc(String name) {
        return name + OIDC_SUFFIX;
    }

    public static String s3(String name) {
        return name + S3_SUFFIX;
    }

    /** KubeSpawner's pod name template: {@code jupyter-<name>-<user>}. */
    public static String userPodTemplate(String name) {
        return "jupyter-" + name + "-{user_server}";
    }

    /** KubeSpawner's volume name template: {@code claim-<name>-<user>}. */
    public static String userVolumeTemplate(String name) {
        return "claim-" + name + "-{user_server}";
    }

    /** The component label of user pods: KubeSpawner's pod reflector watches only these. */
    public static String userComponent(String name) {
        return name + "-singleuser";
    }
}
