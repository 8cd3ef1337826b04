package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.Instance;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Polaris' {@code application.properties}, in the form Polaris' own Helm chart uses: a file in
 * {@code /deployments/config}, which Quarkus reads over the image's defaults. Exact property names
 * leave no doubt about how an environment variable maps onto {@code token-broker}.
 */
public final class PolarisConfig {

    static final String DIR = "/deployments/config";
    static final String FILE = "application.properties";
    static final String TOKEN_BROKER_KEY_FILE = DIR + "/token-broker/" + CatalogSecrets.SYMMETRIC_KEY;

    private PolarisConfig() {}

    /** The properties, in a fixed order (the pod template carries their checksum). */
    static Map<String, String> properties(Instance inst) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("polaris.realm-context.realms", CatalogKind.spec(inst).realm());
        // A fixed key from a Secret: tokens survive restarts and work on every replica.
        p.put("polaris.authentication.token-broker.type", "symmetric-key");
        p.put("polaris.authentication.token-broker.symmetric-key.file", TOKEN_BROKER_KEY_FILE);
        // The image's defaults also write a rotating log file under ./logs: the container's log is the
        // console, and the root filesystem is read-only.
        p.put("quarkus.log.file.enable", "false");
        return p;
    }

    static String render(Instance inst) {
        return properties(inst).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n"));
    }

    public static ConfigMap configMap(Instance inst, CatalogContext ctx, OwnerReference owner) {
        return new ConfigMapBuilder()
                .withMetadata(CatalogLabels.meta(CatalogNames.config(inst.name()), inst, ctx, CatalogLabels.SERVER, owner))
                .withData(Map.of(FILE, render(inst)))
                .build();
    }

    /** One volume for the directory: the properties and, beside them, the token-broker key. */
    static Volume volume(Instance inst) {
        return new VolumeBuilder().withName("config")
                .withNewProjected()
                    .addNewSource().withNewConfigMap().withName(CatalogNames.config(inst.name()))
                        .withItems(new KeyToPathBuilder().withKey(FILE).withPath(FILE).build()).endConfigMap()
                    .endSource()
                    .addNewSource().withNewSecret().withName(CatalogNames.tokenBrokerSecret(inst.name()))
                        .withItems(new KeyToPathBuilder().withKey(CatalogSecrets.SYMMETRIC_KEY)
                                .withPath("token-broker/" + CatalogSecrets.SYMMETRIC_KEY).build()).endSecret()
                    .endSource()
                .endProjected()
                .build();
    }
}
