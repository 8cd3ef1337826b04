package io.lakehouse.notebooks.kinds.jupyterhub;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Violations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code jupyterhub} template as pure functions: defaults, rules, every object of a hub, its
 * parts and endpoints. The service's kind adapter calls these with a {@link HubInstance}, a
 * {@link HubContext} and the {@link Bindings} it learned from the referenced instances' events.
 *
 * <p>Objects (all named after the instance): ConfigMap {@code <name>-hub-config}
 * ({@code jupyterhub_config.py}), PVC {@code <name>-hub-db}, ServiceAccount/Role/RoleBinding
 * {@code <name>-hub}, Deployment and Service {@code <name>-hub}, Deployment {@code <name>-proxy} with
 * Services {@code <name>} (public) and {@code <name>-proxy-api}, Ingress and NetworkPolicy
 * {@code <name>}; generated once: Secret {@code <name>-hub-secret}; from the grants: ConfigMap
 * {@code <name>-access}. KubeSpawner makes user pods {@code jupyter-<name>-<user>} and volumes
 * {@code claim-<name>-<user>} (labels in {@link #userObjectLabels}); the hub waits for the OIDC client
 * Secret {@code <name>-oidc} that access-service writes.
 */
public final class JupyterHubKind {

    public static final String DEFAULT_CPU = "1";
    public static final String DEFAULT_MEMORY = "2Gi";
    public static final String DEFAULT_STORAGE = "10Gi";

    private JupyterHubKind() {}

    public static Template template(NotebookDefaults defaults) {
        return JupyterHubTemplate.of(defaults);
    }

    /** Suffixes of every name derived from the instance name, for the name-length checks. */
    public static List<String> derivedSuffixes() {
        return List.of(HubNames.ROOT_SUFFIX, HubNames.HUB_SUFFIX, HubNames.CONFIG_SUFFIX, HubNames.DB_SUFFIX,
                HubNames.SECRET_SUFFIX, HubNames.ACCESS_SUFFIX, HubNames.PROXY_SUFFIX, HubNames.PROXY_API_SUFFIX,
                HubNames.OIDC_SUFFIX, HubNames.S3_SUFFIX, "-singleuser", CaBundle.SUFFIX);
    }

    /** Fields fixed at creation; a patch may change only {@code perUser} and {@code lakehouse}. */
    public static Set<String> fixedFields() {
        return Set.of("image", "version", "storage");
    }

    public static JupyterHubSpec withDefaults(JupyterHubSpec requested, NotebookDefaults defaults) {
        JupyterHubSpec s = requested == null ? new JupyterHubSpec(null, null, null, null, null) : requested;
        PerUserSpec p = s.perUser() == null ? new PerUserSpec(null, null, null) : s.perUser();
        return new JupyterHubSpec(
                s.image() == null ? defaults.image() : s.image(),
                s.version() == null ? defaults.version() : s.version(),
                new PerUserSpec(p.cpu() == null ? DEFAULT_CPU : p.cpu(),
                        p.memory() == null ? DEFAULT_MEMORY : p.memory(),
                        p.storage() == null ? DEFAULT_STORAGE : p.storage()),
                s.lakehouse() == null ? LakehouseRefs.NONE : s.lakehouse(),
                s.storage() == null ? null : s.storage().withDefaults());
    }

    public static void checkCreate(Violations v, String name, String namespace, JupyterHubSpec spec) {
        JupyterHubRules.checkCreate(v, name, namespace, derivedSuffixes(), spec);
    }

    public static void checkCapacity(Violations v, JupyterHubSpec spec) {
        JupyterHubRules.checkCapacity(v, spec);
    }

    /** Generated once: created when missing, never rewritten (a new cookie secret signs everyone out). */
    public static Secret generatedSecret(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return HubSecrets.generate(inst, ctx, owner);
    }

    /** Every other object, enforced on each pass. Secret values only by reference. */
    public static List<HasMetadata> objects(HubInstance inst, HubContext ctx, Bindings bindings, OwnerReference owner) {
        List<HasMetadata> objects = new ArrayList<>(List.of(
                HubServer.config(inst, ctx, bindings, owner),
                HubServer.database(inst, ctx),
                HubRbac.serviceAccount(inst, ctx, owner),
                HubRbac.role(inst, ctx, owner),
                HubRbac.roleBinding(inst, ctx, owner),
                HubServer.deployment(inst, ctx, bindings, owner),
                HubServer.service(inst, ctx, owner),
                HubProxy.deployment(inst, ctx, owner),
                HubProxy.publicService(inst, ctx, owner),
                HubProxy.apiService(inst, ctx, owner),
                HubNetwork.ingress(inst, ctx, owner),
                HubNetwork.policy(inst, ctx, owner)));
        objects.addAll(HubServer.caBundle(inst, ctx, owner));
        return objects;
    }

    /** Who may sign in; a change of grants changes only this object, so the hub keeps running. */
    public static List<HasMetadata> accessObjects(HubInstance inst, List<Subject> grants, HubContext ctx,
            OwnerReference owner) {
        return List.of(HubAccess.grants(inst, grants, ctx, owner));
    }

    /** A Deployment whose readiness the status reports as a condition. */
    public record Part(String deployment, String condition, String what) {}

    /** The workloads whose readiness makes the hub Running, in the order conditions show them. */
    public static List<Part> parts(HubInstance inst) {
        return List.of(new Part(HubNames.hub(inst.name()), "HubReady", "the hub"),
                new Part(HubNames.proxy(inst.name()), "ProxyReady", "the proxy"));
    }

    public static Map<String, String> endpoints(HubInstance inst, HubContext ctx) {
        return Map.of(
                "internal", "http://" + inst.name() + "." + inst.namespace() + ".svc:" + HubNames.PROXY_PORT,
                "public", "https://" + ctx.publicHost(inst.name(), inst.namespace()) + "/");
    }

    /**
     * Labels of the users' pods and volumes (made by KubeSpawner, not by the service): select them to
     * stop the servers of a deleted hub, and to remove the volumes when the caller asks for it.
     */
    public static Map<String, String> userObjectLabels(HubInstance inst) {
        return HubConfig.userLabels(inst);
    }
}
