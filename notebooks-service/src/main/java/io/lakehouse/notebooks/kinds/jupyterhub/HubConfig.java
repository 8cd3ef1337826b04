package io.lakehouse.notebooks.kinds.jupyterhub;

import static io.lakehouse.notebooks.kinds.jupyterhub.PythonLiterals.list;
import static io.lakehouse.notebooks.kinds.jupyterhub.PythonLiterals.map;
import static io.lakehouse.notebooks.kinds.jupyterhub.PythonLiterals.string;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.validation.Quantities;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hub's {@code jupyterhub_config.py}: KubeSpawner in the instance's namespace, sign-in with the
 * instance's OIDC client (GenericOAuthenticator; who may sign in follows the grants), the idle culler
 * as a hub-managed service, the proxy as a separate Deployment. It holds no secret value: the client
 * secret, cookie secret and proxy token reach the hub as environment variables from Secrets, and user
 * servers get theirs by {@code secretKeyRef}.
 */
public final class HubConfig {

    public static final String FILE = "jupyterhub_config.py";
    public static final String DIR = "/etc/lakehouse/hub";
    public static final String ACCESS_DIR = "/etc/lakehouse/access";
    public static final String DB_DIR = "/srv/jupyterhub";
    public static final String HOME = "/home/jovyan";
    /** Idle user servers are stopped after an hour (checked every 10 minutes); their volumes stay. */
    public static final int CULL_TIMEOUT_SECONDS = 3600;
    public static final int CULL_EVERY_SECONDS = 600;
    /** The least scopes the culler needs to find idle servers and stop them (never to delete users). */
    public static final List<String> CULLER_SCOPES =
            List.of("list:users", "read:users:activity", "read:servers", "delete:servers");
    /** jupyter/docker-stacks images run as jovyan (uid 1000) in group users (gid 100). */
    static final long USER_UID = 1000;
    static final long USER_GID = 100;
    static final String HOME_VOLUME = "home";

    private HubConfig() {}

    /**
     * @param owner the instance's root object: user pods get it as owner, so deleting the instance stops
     *     them (garbage collection); their volumes have no owner and stay
     */
    public static String render(HubInstance inst, HubContext ctx, Bindings bindings, OwnerReference owner) {
        StringBuilder py = new StringBuilder();
        py.append(HEADER.formatted(inst.namespace(), inst.name(), ACCESS_DIR));
        hub(py, inst);
        authenticator(py, inst, ctx);
        spawner(py, inst, ctx, bindings);
        ownedPods(py, owner);
        culler(py);
        return py.toString();
    }

    private static void hub(StringBuilder py, HubInstance inst) {
        section(py, "The hub: its API for the proxy and user servers, its database on the hub's volume");
        set(py, "JupyterHub.hub_bind_url", string("http://:" + HubNames.HUB_PORT));
        set(py, "JupyterHub.hub_connect_url",
                string("http://" + HubNames.hub(inst.name()) + ":" + HubNames.HUB_PORT));
        set(py, "JupyterHub.db_url", string("sqlite:///" + DB_DIR + "/jupyterhub.sqlite"));
        // User servers outlive a hub restart (a configuration change restarts the hub).
        set(py, "JupyterHub.cleanup_servers", "False");
        set(py, "JupyterHub.allow_named_servers", "False");
        set(py, "JupyterHub.spawner_class", string("kubespawner.KubeSpawner"));
        set(py, "JupyterHub.authenticator_class", "LakehouseAuthenticator");
        // The proxy runs in its own Deployment; the hub talks to its API with CONFIGPROXY_AUTH_TOKEN.
        set(py, "ConfigurableHTTPProxy.should_start", "False");
        set(py, "ConfigurableHTTPProxy.api_url",
                string("http://" + HubNames.proxyApi(inst.name()) + ":" + HubNames.PROXY_API_PORT));
    }

    private static void authenticator(StringBuilder py, HubInstance inst, HubContext ctx) {
        section(py, "Sign-in with the platform account: the instance's OIDC client <name>-oidc (client id and"
                + " secret\n# from OAUTH_CLIENT_ID / OAUTH_CLIENT_SECRET); the deployer administers the hub");
        String host = ctx.publicHost(inst.name(), inst.namespace());
        set(py, "GenericOAuthenticator.oauth_callback_url", string("https://" + host + "/hub/oauth_callback"));
        set(py, "GenericOAuthenticator.authorize_url", "ISSUER + \"/protocol/openid-connect/auth\"");
        set(py, "GenericOAuthenticator.token_url", "ISSUER + \"/protocol/openid-connect/token\"");
        set(py, "GenericOAuthenticator.userdata_url", "ISSUER + \"/protocol/openid-connect/userinfo\"");
        set(py, "GenericOAuthenticator.logout_redirect_url", "ISSUER + \"/protocol/openid-connect/logout\"");
        set(py, "GenericOAuthenticator.scope", list(List.of("openid", "profile", "email")));
        // The platform's identity key: the lowercased preferred_username (Keycloak stores it lowercased).
        set(py, "GenericOAuthenticator.username_claim", string("preferred_username"));
        set(py, "GenericOAuthenticator.enable_pkce", "True");
        set(py, "GenericOAuthenticator.login_service", string("platform account"));
        set(py, "Authenticator.admin_users", "{" + string(inst.createdBy()) + "}");
    }

    private static void spawner(StringBuilder py, HubInstance inst, HubContext ctx, Bindings bindings) {
        section(py, "User servers: one pod and one volume per user, named after the instance");
        JupyterHubSpec spec = inst.spec();
        set(py, "KubeSpawner.namespace", string(inst.namespace()));
        set(py, "KubeSpawner.image", string(spec.imageReference()));
        if (ctx.imagePullSecret() != null) {
            set(py, "KubeSpawner.image_pull_secrets", list(List.of(ctx.imagePullSecret())));
        }
        set(py, "KubeSpawner.pod_name_template", string(HubNames.userPodTemplate(inst.name())));
        set(py, "KubeSpawner.pvc_name_template", string(HubNames.userVolumeTemplate(inst.name())));
        set(py, "KubeSpawner.component_label", string(HubNames.userComponent(inst.name())));
        set(py, "KubeSpawner.common_labels", map(userLabels(inst)));
        set(py, "KubeSpawner.automount_service_account_token", "False");
        set(py, "KubeSpawner.default_url", string("/lab"));
        set(py, "KubeSpawner.start_timeout", "300");
        // Requests = limits: a server starts only where it gets its capacity (and namespace quotas see it).
        String cpu = plain(Quantities.parse(spec.perUser().cpu()).orElseThrow());
        String memory = plain(Quantities.parse(spec.perUser().memory()).orElseThrow());
        set(py, "KubeSpawner.cpu_limit", cpu);
        set(py, "KubeSpawner.cpu_guarantee", cpu);
        // In bytes: KubeSpawner's byte traits know K, M, G, T only, not Kubernetes' Ki, Mi, Gi.
        set(py, "KubeSpawner.mem_limit", memory);
        set(py, "KubeSpawner.mem_guarantee", memory);
        set(py, "KubeSpawner.pod_security_context", map(sorted(Map.of(
                "runAsNonRoot", true, "runAsUser", USER_UID, "runAsGroup", USER_GID, "fsGroup", USER_GID,
                "seccompProfile", Map.of("type", "RuntimeDefault")))));
        set(py, "KubeSpawner.container_security_context", map(sorted(Map.of(
                "runAsNonRoot", true, "allowPrivilegeEscalation", false,
                "capabilities", Map.of("drop", List.of("ALL"))))));
        // The personal volume: made at the first start, kept when the server stops or the user is removed.
        set(py, "KubeSpawner.storage_pvc_ensure", "True");
        set(py, "KubeSpawner.storage_capacity", string(spec.perUser().storage()));
        set(py, "KubeSpawner.storage_access_modes", list(List.of("ReadWriteOnce")));
        if (ctx.storageClass() != null) {
            set(py, "KubeSpawner.storage_class", string(ctx.storageClass()));
        }
        set(py, "KubeSpawner.delete_pvc", "False");
        List<Volume> volumes = new ArrayList<>();
        volumes.add(new VolumeBuilder().withName(HOME_VOLUME)
                .withNewPersistentVolumeClaim().withClaimName("{pvc_name}").endPersistentVolumeClaim().build());
        volumes.addAll(UserEnv.volumes(bindings));
        volumes.addAll(CaBundle.volumes(inst.name(), ctx.caCertificates()));
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(new VolumeMountBuilder().withName(HOME_VOLUME).withMountPath(HOME).build());
        mounts.addAll(UserEnv.mounts(bindings));
        mounts.addAll(CaBundle.mounts(ctx.caCertificates()));
        set(py, "KubeSpawner.volumes", "[" + String.join(", ", volumes.stream().map(PythonLiterals::object).toList())
                + "]");
        set(py, "KubeSpawner.volume_mounts", "[" + String.join(", ",
                mounts.stream().map(PythonLiterals::object).toList()) + "]");
        List<EnvVar> env = new ArrayList<>(UserEnv.of(spec, bindings));
        if (ctx.s3ChecksumWhenRequired()) {
            // The cluster's S3 store rejects the default checksums of newer SDKs (boto3, PyIceberg, Spark).
            env.add(new EnvVar("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required", null));
            env.add(new EnvVar("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required", null));
        }
        // The private CA: Python's ssl, requests, boto3 (PyIceberg, MLflow, Trino clients) trust it with the
        // notebook image's own roots, in the PEM file an init container of that image writes.
        env.addAll(CaBundle.pythonEnv(ctx.caCertificates()));
        set(py, "KubeSpawner.environment", environment(env));
        List<Container> init = CaBundle.pythonInit(spec.imageReference(), ctx.caCertificates());
        if (!init.isEmpty()) {
            set(py, "KubeSpawner.init_containers", "[" + String.join(", ",
                    init.stream().map(PythonLiterals::object).toList()) + "]");
        }
    }

    private static void ownedPods(StringBuilder py, OwnerReference owner) {
        section(py, "User pods belong to the instance's root object: deleting the instance (root last) lets\n"
                + "# garbage collection stop the servers; their volumes have no owner and stay");
        py.append("ROOT = ").append(map(new TreeMap<>(Map.of("apiVersion", owner.getApiVersion(), "kind",
                owner.getKind(), "name", owner.getName(), "uid", owner.getUid())))).append("\n\n\n");
        py.append(OWNED_BY_INSTANCE);
        set(py, "KubeSpawner.modify_pod_hook", "owned_by_instance");
    }

    private static final String OWNED_BY_INSTANCE = """
            def owned_by_instance(spawner, pod):
                from kubernetes_asyncio.client.models import V1OwnerReference

                pod.metadata.owner_references = [V1OwnerReference(
                    api_version=ROOT["apiVersion"], kind=ROOT["kind"], name=ROOT["name"], uid=ROOT["uid"])]
                return pod


            """;

    private static void culler(StringBuilder py) {
        section(py, "Idle servers stop after an hour; the culler is a hub-managed service with the least scopes");
        set(py, "JupyterHub.services", "[{\"name\": \"idle-culler\", \"command\": " + list(List.of(
                "python3", "-m", "jupyterhub_idle_culler",
                "--url=http://localhost:" + HubNames.HUB_PORT + "/hub/api",
                "--timeout=" + CULL_TIMEOUT_SECONDS, "--cull-every=" + CULL_EVERY_SECONDS, "--concurrency=10"))
                + "}]");
        set(py, "JupyterHub.load_roles", "[{\"name\": \"idle-culler\", \"scopes\": " + list(CULLER_SCOPES)
                + ", \"services\": [\"idle-culler\"]}]");
    }

    /** {@code name: value} or {@code name: {"valueFrom": ...}}, in the order given. */
    static String environment(List<EnvVar> env) {
        List<String> entries = new ArrayList<>();
        for (EnvVar e : env) {
            String value = e.getValueFrom() != null
                    ? "{\"valueFrom\": " + PythonLiterals.object(e.getValueFrom()) + "}"
                    : string(e.getValue());
            entries.add("\n    " + string(e.getName()) + ": " + value + ",");
        }
        return entries.isEmpty() ? "{}" : "{" + String.join("", entries) + "\n}";
    }

    /** Labels of user pods and volumes: the instance's, managed by KubeSpawner (never by the service). */
    static Map<String, String> userLabels(HubInstance inst) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(Labels.NAME, HubNames.APP);
        labels.put(Labels.INSTANCE, inst.name());
        labels.put(Labels.MANAGED_BY, HubNames.SPAWNER);
        labels.put(Labels.PART_OF, Labels.PART_OF_VALUE);
        labels.put(Labels.INSTANCE_KIND, HubInstance.KIND);
        return labels;
    }

    /** Map.of has no stable order: the generated file must be the same on every pass. */
    private static Map<String, Object> sorted(Map<String, Object> values) {
        return new TreeMap<>(values);
    }

    private static String plain(BigDecimal value) {
        return value.stripTrailingZeros().toPlainString();
    }

    private static void section(StringBuilder py, String comment) {
        py.append("\n# ").append(comment).append('\n');
    }

    private static void set(StringBuilder py, String trait, String literal) {
        py.append("c.").append(trait).append(" = ").append(literal).append('\n');
    }

    private static final String HEADER = """
            # jupyterhub_config.py of the JupyterHub instance %s/%s, generated by notebooks-service.
            # Do not edit: the service rewrites it (and the hub restarts) when the instance or a bound
            # instance changes. No secret value here: the hub reads them from its environment (Secrets).
            import json
            import os

            from oauthenticator.generic import GenericOAuthenticator

            c = get_config()  # noqa: F821 - JupyterHub provides it when it loads this file

            # The realm of the instance's OIDC client (key issuer of <name>-oidc).
            ISSUER = os.environ["OIDC_ISSUER"].rstrip("/")
            GRANTS_FILE = "%s/grants.json"


            class LakehouseAuthenticator(GenericOAuthenticator):
                \"""Who may sign in follows the instance's grants, read at every sign-in: no restart on a change.\"""

                async def check_allowed(self, username, auth_model):
                    if await super().check_allowed(username, auth_model):
                        return True  # the administrator
                    try:
                        with open(GRANTS_FILE) as f:
                            grants = json.load(f)
                    except (OSError, ValueError):
                        self.log.warning("cannot read %%s: only the administrator may sign in", GRANTS_FILE)
                        return False
                    if username in grants.get("users", []):
                        return True
                    oauth_user = ((auth_model or {}).get("auth_state") or {}).get("oauth_user") or {}
                    return bool(set(oauth_user.get("groups") or []) & set(grants.get("groups", [])))
            """;
}
