package io.lakehouse.engines.kinds.trino;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.storage.StorageRules;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.common.validation.Warehouses;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code trino} template: a coordinator and workers with the {@code lakehouse} catalog pre-wired
 * (always named {@code lakehouse}, whatever the warehouse, so the seed's queries work everywhere).
 */
public final class TrinoKind implements InstanceKind<EngineContext> {

    public static final String KIND = "trino";
    public static final String DEFAULT_WAREHOUSE = "lakehouse";
    public static final int DEFAULT_WORKERS = 2;
    public static final String DEFAULT_MEMORY = "4Gi";
    public static final String DEFAULT_CPU = "2";
    /** The seed's rule: the JVM heap is fixed at 1.4 GB, plus off-heap. */
    public static final String MIN_MEMORY = "3Gi";
    public static final String MAX_MEMORY = "256Gi";
    public static final String MIN_CPU = "500m";
    public static final String MAX_CPU = "64";
    public static final int MIN_WORKERS = 1;
    public static final int MAX_WORKERS = 100;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Template template() {
        return TrinoTemplate.TEMPLATE;
    }

    @Override
    public Class<TrinoSpec> specType() {
        return TrinoSpec.class;
    }

    @Override
    public List<String> derivedSuffixes() {
        return List.of(TrinoNames.WORKER_SUFFIX, TrinoNames.CONFIG_SUFFIX, TrinoNames.WORKER_SUFFIX + "-config",
                TrinoNames.CATALOG_SUFFIX, TrinoNames.INTERNAL_SUFFIX, TrinoNames.TLS_SUFFIX, TrinoNames.ACCESS_SUFFIX,
                InstanceObjects.ROOT_SUFFIX, InstanceObjects.S3_SUFFIX, InstanceObjects.OIDC_SUFFIX, CaBundle.SUFFIX);
    }

    @Override
    public Set<String> fixedFields() {
        return Set.of("catalog", "warehouse", "storage");
    }

    @Override
    public boolean usesOidcClient() {
        return true;
    }

    @Override
    public TrinoSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog) {
        TrinoSpec s = (TrinoSpec) requested;
        return new TrinoSpec(s.catalog(),
                s.warehouse() != null ? s.warehouse() : catalog.map(CatalogRef::catalogName).orElse(DEFAULT_WAREHOUSE),
                s.storage() != null ? s.storage().withDefaults() : catalog.map(CatalogRef::storage).orElse(null),
                s.workers() == null ? DEFAULT_WORKERS : s.workers(),
                s.coordinatorMemory() == null ? DEFAULT_MEMORY : s.coordinatorMemory(),
                s.workerMemory() == null ? DEFAULT_MEMORY : s.workerMemory(),
                s.cpu() == null ? DEFAULT_CPU : s.cpu());
    }

    @Override
    public void checkCreate(Violations v, String name, String namespace, InstanceSpec spec) {
        TrinoSpec s = (TrinoSpec) spec;
        Names.checkInstanceName(v, "name", name, namespace, derivedSuffixes());
        if (s.catalog() == null) {
            v.add("spec.catalog", "is required: an iceberg-catalog of this namespace");
        } else if (!Names.isDns1123Label(s.catalog())) {
            v.add("spec.catalog", "is not a valid instance name");
        }
        Warehouses.check(v, "spec.warehouse", s.warehouse());
        StorageRules.check(v, "spec.storage", s.storage());
        checkCapacity(v, spec);
    }

    @Override
    public void checkCapacity(Violations v, InstanceSpec spec) {
        TrinoSpec s = (TrinoSpec) spec;
        if (s.workers() < MIN_WORKERS || s.workers() > MAX_WORKERS) {
            v.add("spec.workers", "must be between " + MIN_WORKERS + " and " + MAX_WORKERS
                    + " (the coordinator runs no tasks)");
        }
        String rule = "; Trino pods need at least " + MIN_MEMORY + " (JVM heap fixed at 1.4 GB, plus off-heap)";
        checkMemory(v, "spec.coordinatorMemory", s.coordinatorMemory(), rule);
        checkMemory(v, "spec.workerMemory", s.workerMemory(), rule);
        Quantities.check(v, "spec.cpu", s.cpu(), MIN_CPU, MAX_CPU);
    }

    private static void checkMemory(Violations v, String field, String value, String rule) {
        Violations one = new Violations();
        Quantities.check(one, field, value, MIN_MEMORY, MAX_MEMORY);
        one.errors().forEach(e -> v.add(e.field(), e.message() + (e.message().contains("at least") ? rule : "")));
    }

    @Override
    public List<GeneratedSecret> generatedSecrets(Instance inst, EngineContext ctx, OwnerReference owner) {
        return List.of(
                new GeneratedSecret(TrinoNames.internal(inst.name()), () -> TrinoSecrets.internal(inst, ctx, owner)),
                new GeneratedSecret(TrinoNames.tls(inst.name()), () -> TrinoSecrets.tls(inst, ctx, owner)));
    }

    @Override
    public List<HasMetadata> objects(Instance inst, EngineContext ctx, OwnerReference owner) {
        List<HasMetadata> objects = new ArrayList<>(List.of(
                TrinoConfigMaps.coordinator(inst, ctx, owner),
                TrinoConfigMaps.worker(inst, ctx, owner),
                TrinoConfigMaps.catalog(inst, ctx, owner),
                TrinoWorkloads.coordinator(inst, ctx, owner),
                TrinoWorkloads.workers(inst, ctx, owner),
                TrinoNetwork.service(inst, ctx, owner),
                TrinoNetwork.workerService(inst, ctx, owner),
                TrinoNetwork.ingress(inst, ctx, owner),
                // Workers and coordinator talk on 8080; clients of the namespace and the gateway use HTTPS.
                InstanceObjects.networkPolicy(TrinoNames.APP, inst, ctx, owner,
                        List.of(TrinoNames.HTTP_PORT, TrinoNames.HTTPS_PORT), List.of(TrinoNames.HTTPS_PORT))));
        objects.addAll(CaBundle.configMaps(TrinoNames.APP, inst, ctx, owner));
        return objects;
    }

    @Override
    public boolean readsGrants() {
        return true;
    }

    @Override
    public List<HasMetadata> accessObjects(Instance inst, List<Subject> grants, EngineContext ctx,
            OwnerReference owner) {
        return accessObjects(inst, grants, Map.of(), ctx, owner);
    }

    @Override
    public List<HasMetadata> accessObjects(Instance inst, List<Subject> grants, Map<String, List<String>> groupMembers,
            EngineContext ctx, OwnerReference owner) {
        return List.of(TrinoAccess.rules(inst, grants, groupMembers, ctx, owner));
    }

    @Override
    public List<Part> parts(Instance inst) {
        return List.of(
                Part.of(ResourceKind.DEPLOYMENT, inst.name(), "CoordinatorReady", "the Trino coordinator"),
                Part.of(ResourceKind.DEPLOYMENT, TrinoNames.workers(inst.name()), "WorkersReady", "the Trino workers"));
    }

    @Override
    public Map<String, String> endpoints(Instance inst, EngineContext ctx) {
        return Map.of(
                // With authentication on, Trino serves clients over HTTPS only (8080 is for its own nodes).
                "internal", "https://" + inst.name() + "." + inst.namespace() + ".svc:" + TrinoNames.HTTPS_PORT,
                "public", "https://" + ctx.publicHost(inst.name(), inst.namespace()) + "/ui/");
    }

    @Override
    public List<String> secrets(Instance inst) {
        return List.of(TrinoNames.tls(inst.name()));
    }
}
