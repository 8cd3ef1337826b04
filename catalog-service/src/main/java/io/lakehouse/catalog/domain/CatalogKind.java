package io.lakehouse.catalog.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.catalog.reconcile.CatalogDatabase;
import io.lakehouse.catalog.reconcile.PolarisConfig;
import io.lakehouse.catalog.reconcile.CatalogLabels;
import io.lakehouse.catalog.reconcile.CatalogSecrets;
import io.lakehouse.catalog.reconcile.CatalogStatusCalculator;
import io.lakehouse.catalog.reconcile.CatalogTasks;
import io.lakehouse.catalog.reconcile.Observed;
import io.lakehouse.catalog.reconcile.PolarisServer;
import io.lakehouse.common.crypto.RandomValues;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Gates;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.InstanceStatus;
import io.lakehouse.common.instances.LiveObjects;
import io.lakehouse.common.instances.ObjectRef;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.instances.Progress;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Violations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code iceberg-catalog} kind: Apache Polaris with its CloudNativePG database, Ready once two
 * one-off tasks (Jobs) have initialized its realm and created its catalog.
 */
public final class CatalogKind implements InstanceKind<CatalogContext> {

    public static final String KIND = "iceberg-catalog";

    /** The spec of a stored catalog instance, typed. */
    public static CatalogSpec spec(Instance inst) {
        return (CatalogSpec) inst.spec();
    }

    @Override
    public String kind() {
        return KIND;
    }

    /** Polaris, the component every object of the instance runs or serves. */
    @Override
    public String app() {
        return CatalogLabels.APP;
    }

    @Override
    public Template template() {
        return CatalogTemplate.TEMPLATE;
    }

    @Override
    public Class<CatalogSpec> specType() {
        return CatalogSpec.class;
    }

    @Override
    public List<String> derivedSuffixes() {
        return CatalogRules.DERIVED_SUFFIXES;
    }

    @Override
    public Set<String> fixedFields() {
        return CatalogPatch.FIXED_SPEC;
    }

    /** Polaris checks its own tokens; the catalog has no OIDC client to wait for. */
    @Override
    public boolean usesOidcClient() {
        return false;
    }

    @Override
    public InstanceSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog) {
        return ((CatalogSpec) requested).withDefaults();
    }

    @Override
    public void checkCreate(Violations v, String name, String namespace, InstanceSpec spec) {
        CatalogRules.check(v, name, namespace, (CatalogSpec) spec);
    }

    @Override
    public void checkCapacity(Violations v, InstanceSpec spec) {
        CatalogRules.checkCapacity(v, (CatalogSpec) spec);
    }

    @Override
    public InstanceSpec patch(InstanceSpec current, JsonNode patch) {
        return CatalogPatch.apply((CatalogSpec) current, patch);
    }

    @Override
    public List<GeneratedSecret> generatedSecrets(Instance inst, CatalogContext ctx, OwnerReference owner) {
        return List.of(
                new GeneratedSecret(CatalogNames.rootPrincipalSecret(inst.name()), () -> CatalogSecrets.rootPrincipal(
                        inst, ctx, owner, RandomValues.hex(8), RandomValues.token(32))),
                new GeneratedSecret(CatalogNames.tokenBrokerSecret(inst.name()),
                        () -> CatalogSecrets.tokenBroker(inst, ctx, owner, RandomValues.token(32))));
    }

    /** The database is not owned by the instance's root: see {@link CatalogDatabase}. */
    @Override
    public List<HasMetadata> objects(Instance inst, CatalogContext ctx, OwnerReference owner) {
        List<HasMetadata> objects = new ArrayList<>(List.of(CatalogDatabase.of(inst, ctx),
                PolarisConfig.configMap(inst, ctx, owner), PolarisServer.deployment(inst, ctx, owner),
                PolarisServer.service(inst, ctx, owner), PolarisServer.ingress(inst, ctx, owner),
                PolarisServer.networkPolicy(inst, ctx, owner)));
        objects.addAll(CaBundle.configMaps(CatalogLabels.APP, inst, ctx, owner));
        return objects;
    }

    /**
     * Written by CloudNativePG, owned by its Cluster: garbage collection removes it on a real cluster;
     * deleting it as well keeps the promise where no collector runs.
     */
    @Override
    public List<ObjectRef> leftovers(Instance inst) {
        return List.of(new ObjectRef(ResourceKind.SECRET, CatalogNames.databaseAppSecret(inst.name())));
    }

    @Override
    public List<Part> parts(Instance inst) {
        return List.of(
                Part.of(ResourceKind.CNPG_CLUSTER, CatalogNames.database(inst.name()),
                        CatalogStatusCalculator.DATABASE_READY, "the catalog's database"),
                Part.of(ResourceKind.DEPLOYMENT, CatalogNames.server(inst.name()), CatalogStatusCalculator.SERVER_READY,
                        "the Polaris server"));
    }

    /**
     * The status from the database, the server and the two tasks; each task is started only once what
     * it needs is there, instead of failing and backing off inside its Job.
     */
    @Override
    public Progress progress(Instance inst, CatalogContext ctx, OwnerReference owner, Gates gates,
            LiveObjects live, Instant now) {
        String name = inst.name();
        GenericKubernetesResource database = (GenericKubernetesResource) live.get(ResourceKind.CNPG_CLUSTER,
                CatalogNames.database(name));
        Job realmInit = (Job) live.get(ResourceKind.JOB, CatalogNames.realmInitJob(name));
        Job catalogInit = (Job) live.get(ResourceKind.JOB, CatalogNames.catalogInit(name));
        CatalogStatusCalculator.Result status = CatalogStatusCalculator.compute(new Observed(database,
                        (Deployment) live.get(ResourceKind.DEPLOYMENT, CatalogNames.server(name)), realmInit,
                        catalogInit),
                inst.conditions(), inst.phase(), inst.generation(), now);
        List<Condition> c = status.conditions();
        List<HasMetadata> enforce = new ArrayList<>();
        List<HasMetadata> createOnce = new ArrayList<>();
        List<HasMetadata> remove = new ArrayList<>();
        if (databaseReplaced(c)) {
            // The tasks' Jobs belong to the old database: removed, they run again on the new one.
            Optional.ofNullable(realmInit).ifPresent(remove::add);
            Optional.ofNullable(catalogInit).ifPresent(remove::add);
        } else if (Conditions.isTrue(c, CatalogStatusCalculator.DATABASE_READY)
                && !Conditions.isTrue(c, CatalogStatusCalculator.REALM_INITIALIZED)
                && CatalogTasks.realmInitToCreate(realmInit, inst, ctx)) {
            createOnce.add(CatalogTasks.realmInit(inst, ctx, owner, database.getMetadata().getUid()));
        }
        if (Conditions.isTrue(c, CatalogStatusCalculator.REALM_INITIALIZED)
                && Conditions.isTrue(c, CatalogStatusCalculator.SERVER_READY)
                && !Conditions.isTrue(c, CatalogStatusCalculator.CATALOG_CREATED)) {
            enforce.add(CatalogTasks.catalogInitConfig(inst, ctx, owner));
            if (CatalogTasks.catalogInitToCreate(catalogInit, inst, ctx)) {
                createOnce.add(CatalogTasks.catalogInit(inst, ctx, owner));
            }
        }
        return new Progress(new InstanceStatus.Result(status.phase(), status.conditions()), enforce, createOnce,
                remove);
    }

    private static boolean databaseReplaced(List<Condition> conditions) {
        return Conditions.find(conditions, CatalogStatusCalculator.REALM_INITIALIZED)
                .filter(r -> CatalogStatusCalculator.DATABASE_REPLACED.equals(r.reason())).isPresent();
    }

    @Override
    public Map<String, String> endpoints(Instance inst, CatalogContext ctx) {
        return Map.of(
                "internal", CatalogNames.internalUri(inst.name(), inst.namespace()),
                "public", CatalogNames.publicUri(inst.name(), inst.namespace(), ctx.domain()));
    }

    @Override
    public List<String> secrets(Instance inst) {
        return List.of(CatalogNames.rootPrincipalSecret(inst.name()));
    }

    /**
     * What other services need to use the catalog (names, internal endpoint, names of the Secrets
     * holding credentials) in place of the spec, never a secret value.
     */
    @Override
    public void describe(Instance inst, CatalogContext ctx, ObjectNode published) {
        published.removeAll();
        CatalogSpec spec = spec(inst);
        published.put("catalogName", spec.catalogName())
                .put("realm", spec.realm())
                .put("bucket", spec.storage().bucket())
                .put("endpoint", spec.storage().endpoint())
                .put("region", spec.storage().region())
                .put("pathStyleAccess", spec.storage().pathStyleAccess())
                .put("storageSecret", spec.storage().credentialsSecret())
                .put("internalUri", CatalogNames.internalUri(inst.name(), inst.namespace()))
                .put("rootPrincipalSecret", CatalogNames.rootPrincipalSecret(inst.name()));
        published.putObject("resources")
                .put("memory", spec.resources().memory())
                .put("cpu", spec.resources().cpu());
    }
}
