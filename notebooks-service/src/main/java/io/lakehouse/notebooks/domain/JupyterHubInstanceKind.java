package io.lakehouse.notebooks.domain;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.ObjectRef;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.HubNames;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubKind;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubSpec;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables;
import io.lakehouse.notebooks.kinds.jupyterhub.NotebookDefaults;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code jupyterhub} kind on the instance framework: a thin adapter from the framework's
 * {@link Instance} to the pure builders of {@link JupyterHubKind}, with the bindings of the hub's
 * references read from the service's projection of their events.
 */
public final class JupyterHubInstanceKind implements InstanceKind<NotebookContext> {

    private final NotebookDefaults defaults;

    public JupyterHubInstanceKind(NotebookDefaults defaults) {
        this.defaults = defaults;
    }

    static HubInstance hub(Instance inst) {
        return new HubInstance(inst.namespace(), inst.name(), inst.uid(), (JupyterHubSpec) inst.spec(),
                inst.createdBy());
    }

    @Override
    public String kind() {
        return HubInstance.KIND;
    }

    @Override
    public Template template() {
        return JupyterHubKind.template(defaults);
    }

    @Override
    public Class<JupyterHubSpec> specType() {
        return JupyterHubSpec.class;
    }

    @Override
    public List<String> derivedSuffixes() {
        return JupyterHubKind.derivedSuffixes();
    }

    @Override
    public Set<String> fixedFields() {
        return JupyterHubKind.fixedFields();
    }

    /** The hub signs users in with the {@code <name>-oidc} client and waits for it. */
    @Override
    public boolean usesOidcClient() {
        return true;
    }

    @Override
    public InstanceSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog) {
        return JupyterHubKind.withDefaults((JupyterHubSpec) requested, defaults);
    }

    @Override
    public void checkCreate(Violations v, String name, String namespace, InstanceSpec spec) {
        JupyterHubKind.checkCreate(v, name, namespace, (JupyterHubSpec) spec);
    }

    @Override
    public void checkCapacity(Violations v, InstanceSpec spec) {
        JupyterHubKind.checkCapacity(v, (JupyterHubSpec) spec);
    }

    @Override
    public List<GeneratedSecret> generatedSecrets(Instance inst, NotebookContext ctx, OwnerReference owner) {
        return List.of(new GeneratedSecret(HubNames.secret(inst.name()),
                () -> JupyterHubKind.generatedSecret(hub(inst), ctx.hub(), owner)));
    }

    @Override
    public List<HasMetadata> objects(Instance inst, NotebookContext ctx, OwnerReference owner) {
        JupyterHubSpec spec = (JupyterHubSpec) inst.spec();
        return JupyterHubKind.objects(hub(inst), ctx.hub(), ctx.bound().bindings(inst.namespace(), spec.lakehouse()),
                owner);
    }

    /** The bindings of the hub's references (its config) and their states ({@code VariablesCurrent}). */
    @Override
    public String contextInputs(Instance inst, NotebookContext ctx) {
        LakehouseRefs refs = ((JupyterHubSpec) inst.spec()).lakehouse();
        return ctx.bound().bindings(inst.namespace(), refs) + "|"
                + new TreeMap<>(ctx.bound().states(inst.namespace(), refs));
    }

    @Override
    public boolean readsGrants() {
        return true;
    }

    @Override
    public List<HasMetadata> accessObjects(Instance inst, List<Subject> grants, NotebookContext ctx,
            OwnerReference owner) {
        return JupyterHubKind.accessObjects(hub(inst), grants, ctx.hub(), owner);
    }

    /** The hub's RBAC objects: the framework's teardown covers the informer's kinds only. */
    @Override
    public List<ObjectRef> leftovers(Instance inst) {
        String hub = HubNames.hub(inst.name());
        return List.of(new ObjectRef(ResourceKind.ROLE_BINDING, hub), new ObjectRef(ResourceKind.ROLE, hub),
                new ObjectRef(ResourceKind.SERVICE_ACCOUNT, hub));
    }

    /** {@code VariablesCurrent}: which variables of running user servers a deleted or recreated instance left stale. */
    @Override
    public List<Condition> extraConditions(Instance inst, NotebookContext ctx) {
        LakehouseRefs refs = ((JupyterHubSpec) inst.spec()).lakehouse();
        StaleVariables.Result r = StaleVariables.of(refs == null ? LakehouseRefs.NONE : refs,
                ctx.bound().states(inst.namespace(), refs),
                ctx.servers().startTimes(inst.namespace(), JupyterHubKind.userObjectLabels(hub(inst))));
        return List.of(new Condition(StaleVariables.CONDITION, r.current() ? Condition.TRUE : Condition.FALSE,
                r.reason(), r.message(), null, inst.generation()));
    }

    @Override
    public List<Part> parts(Instance inst) {
        return JupyterHubKind.parts(hub(inst)).stream()
                .map(p -> Part.of(ResourceKind.DEPLOYMENT, p.deployment(), p.condition(), p.what())).toList();
    }

    @Override
    public Map<String, String> endpoints(Instance inst, NotebookContext ctx) {
        return JupyterHubKind.endpoints(hub(inst), ctx.hub());
    }

    /** None: users sign in; servers read their Secrets by reference. */
    @Override
    public List<String> secrets(Instance inst) {
        return List.of();
    }
}
