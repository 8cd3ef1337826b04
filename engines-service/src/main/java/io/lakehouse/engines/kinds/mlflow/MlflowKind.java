package io.lakehouse.engines.kinds.mlflow;

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
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code mlflow} template: a tracking server with its PostgreSQL database and artifacts on S3.
 * Notebooks of the namespace use {@code MLFLOW_TRACKING_URI=http://<name>.<namespace>.svc:5000}
 * (no login, no S3 keys); people use the public address behind the platform login and grants.
 */
public final class MlflowKind implements InstanceKind<EngineContext> {

    public static final String KIND = "mlflow";
    public static final String DEFAULT_ARTIFACTS_PREFIX = "mlflow";
    public static final int DEFAULT_WORKERS = 2;
    public static final int MIN_WORKERS = 1;
    public static final int MAX_WORKERS = 16;
    public static final String DEFAULT_MEMORY = "2Gi";
    public static final String DEFAULT_CPU = "1";
    public static final String MIN_MEMORY = "1Gi";
    public static final String MAX_MEMORY = "64Gi";
    public static final String MIN_CPU = "250m";
    public static final String MAX_CPU = "16";
    public static final String DEFAULT_STORAGE_SIZE = "1Gi";
    public static final String MIN_STORAGE = "1Gi";
    public static final String MAX_STORAGE = "10Ti";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Template template() {
        return MlflowTemplate.TEMPLATE;
    }

    @Override
    public Class<MlflowSpec> specType() {
        return MlflowSpec.class;
    }

    @Override
    public List<String> derivedSuffixes() {
        return List.of(MlflowNames.DATABASE_SUFFIX, MlflowNames.DATABASE_APP_SUFFIX, InstanceObjects.ROOT_SUFFIX,
                InstanceObjects.S3_SUFFIX, CaBundle.SUFFIX);
    }

    @Override
    public Set<String> fixedFields() {
        return Set.of("storage", "artifactsPrefix");
    }

    /** The platform login happens at the gateway (forward auth): no OIDC client of its own. */
    @Override
    public boolean usesOidcClient() {
        return false;
    }

    @Override
    public MlflowSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog) {
        MlflowSpec s = requested == null ? new MlflowSpec(null, null, null, null, null) : (MlflowSpec) requested;
        ResourcesSpec resources = s.resources() == null ? new ResourcesSpec(null, null) : s.resources();
        return new MlflowSpec(
                s.storage() == null ? null : s.storage().withDefaults(),
                s.artifactsPrefix() == null ? DEFAULT_ARTIFACTS_PREFIX : s.artifactsPrefix(),
                s.workers() == null ? DEFAULT_WORKERS : s.workers(),
                resources.orDefaults(DEFAULT_MEMORY, DEFAULT_CPU),
                new DatabaseSpec(s.database() == null || s.database().storageSize() == null ? DEFAULT_STORAGE_SIZE
                        : s.database().storageSize()));
    }

    @Override
    public void checkCreate(Violations v, String name, String namespace, InstanceSpec spec) {
        MlflowRules.checkCreate(v, name, namespace, derivedSuffixes(), (MlflowSpec) spec);
    }

    @Override
    public void checkCapacity(Violations v, InstanceSpec spec) {
        MlflowRules.checkCapacity(v, (MlflowSpec) spec);
    }

    @Override
    public void checkChange(Violations v, InstanceSpec before, InstanceSpec after) {
        Quantities.checkGrowth(v, "spec.database.storageSize", ((MlflowSpec) before).database().storageSize(),
                ((MlflowSpec) after).database().storageSize());
    }

    @Override
    public List<GeneratedSecret> generatedSecrets(Instance inst, EngineContext ctx, OwnerReference owner) {
        return List.of();
    }

    @Override
    public List<HasMetadata> objects(Instance inst, EngineContext ctx, OwnerReference owner) {
        List<HasMetadata> objects = new ArrayList<>(List.of(
                MlflowDatabase.of(inst, ctx),
                MlflowServer.deployment(inst, ctx, owner),
                MlflowServer.service(inst, ctx, owner),
                MlflowIngress.of(inst, ctx, owner),
                InstanceObjects.networkPolicy(MlflowNames.APP, inst, ctx, owner, List.of(MlflowNames.HTTP_PORT),
                        List.of(MlflowNames.HTTP_PORT))));
        objects.addAll(CaBundle.configMaps(MlflowNames.APP, inst, ctx, owner));
        return objects;
    }

    @Override
    public List<ObjectRef> leftovers(Instance inst) {
        return List.of(new ObjectRef(ResourceKind.SECRET, MlflowNames.databaseApp(inst.name())));
    }

    @Override
    public List<Part> parts(Instance inst) {
        return List.of(
                Part.of(ResourceKind.CNPG_CLUSTER, MlflowNames.database(inst.name()), "DatabaseReady",
                        "the PostgreSQL database"),
                Part.of(ResourceKind.DEPLOYMENT, inst.name(), "ServerReady", "the MLflow server"));
    }

    @Override
    public Map<String, String> endpoints(Instance inst, EngineContext ctx) {
        return Map.of(
                "internal", "http://" + inst.name() + "." + inst.namespace() + ".svc:" + MlflowNames.HTTP_PORT,
                "public", "https://" + ctx.publicHost(inst.name(), inst.namespace()) + "/");
    }

    /** None: clients need no credentials (the server holds the S3 keys, the gateway the login). */
    @Override
    public List<String> secrets(Instance inst) {
        return List.of();
    }
}
