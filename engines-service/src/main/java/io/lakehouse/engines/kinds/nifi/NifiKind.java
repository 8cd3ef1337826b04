package io.lakehouse.engines.kinds.nifi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.ObjectRef;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code nifi} template: one NiFi 2 node, HTTPS only, OIDC sign-in, flow and repositories on a volume. */
public final class NifiKind implements InstanceKind<EngineContext> {

    public static final String KIND = "nifi";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Template template() {
        return NifiTemplate.TEMPLATE;
    }

    @Override
    public Class<NifiSpec> specType() {
        return NifiSpec.class;
    }

    @Override
    public List<String> derivedSuffixes() {
        return List.of(NifiNames.TLS_SUFFIX, NifiNames.NIFI_SUFFIX, InstanceObjects.ROOT_SUFFIX,
                InstanceObjects.OIDC_SUFFIX, CaBundle.SUFFIX);
    }

    @Override
    public Set<String> fixedFields() {
        return Set.of("volumeSize");
    }

    @Override
    public boolean usesOidcClient() {
        return true;
    }

    @Override
    public NifiSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog) {
        NifiSpec spec = requested == null ? new NifiSpec(null, null, null) : (NifiSpec) requested;
        return spec.withDefaults();
    }

    @Override
    public void checkCreate(Violations v, String name, String namespace, InstanceSpec spec) {
        NifiRules.checkName(v, name, namespace, derivedSuffixes());
        NifiRules.checkVolume(v, (NifiSpec) spec);
        checkCapacity(v, spec);
    }

    @Override
    public void checkCapacity(Violations v, InstanceSpec spec) {
        NifiRules.checkCapacity(v, (NifiSpec) spec);
    }

    @Override
    public List<GeneratedSecret> generatedSecrets(Instance inst, EngineContext ctx, OwnerReference owner) {
        return List.of(
                new GeneratedSecret(NifiNames.tls(inst.name()), () -> NifiSecrets.tls(inst, ctx, owner)),
                new GeneratedSecret(NifiNames.nifiSecret(inst.name()), () -> NifiSecrets.nifi(inst, ctx, owner)));
    }

    @Override
    public List<HasMetadata> objects(Instance inst, EngineContext ctx, OwnerReference owner) {
        List<HasMetadata> objects = new ArrayList<>(List.of(
                NifiServer.statefulSet(inst, ctx, owner),
                NifiNetwork.service(inst, ctx, owner),
                NifiNetwork.ingress(inst, ctx, owner),
                InstanceObjects.networkPolicy(NifiNames.APP, inst, ctx, owner, List.of(NifiNames.HTTPS_PORT),
                        List.of(NifiNames.HTTPS_PORT))));
        objects.addAll(CaBundle.configMaps(NifiNames.APP, inst, ctx, owner));
        return objects;
    }

    /** The flow and repositories' volume: its controller removes it on a real cluster (retention policy). */
    @Override
    public List<ObjectRef> leftovers(Instance inst) {
        return List.of(new ObjectRef(ResourceKind.PVC, NifiNames.claim(inst.name())));
    }

    @Override
    public List<Part> parts(Instance inst) {
        return List.of(Part.of(ResourceKind.STATEFUL_SET, inst.name(), "ServerReady", "the NiFi server")
                .startingMessage("NiFi is starting: the first start takes 1 to 3 minutes (extension loading)"));
    }

    @Override
    public Map<String, String> endpoints(Instance inst, EngineContext ctx) {
        return Map.of(
                "internal", "https://" + NifiNames.serviceHost(inst.name(), inst.namespace()) + ":"
                        + NifiNames.HTTPS_PORT + "/nifi/",
                "public", "https://" + ctx.publicHost(inst.name(), inst.namespace()) + "/nifi/");
    }

    /** {@code <name>-tls}: its {@code ca.crt} lets clients inside the cluster verify NiFi. */
    @Override
    public List<String> secrets(Instance inst) {
        return List.of(NifiNames.tls(inst.name()));
    }
}
