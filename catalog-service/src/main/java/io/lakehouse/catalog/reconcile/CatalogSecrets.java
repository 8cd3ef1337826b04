package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.SecretData;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Secrets of a catalog (values in base64 {@code data}, see {@link SecretData}).
 */
public final class CatalogSecrets {

    public static final String CLIENT_ID = "clientId";
    public static final String CLIENT_SECRET = "clientSecret";
    public static final String CATALOG_URI = "catalogUri";
    public static final String CATALOG_NAME = "catalogName";
    public static final String SYMMETRIC_KEY = "symmetric.key";
    public static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    public static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";

    private CatalogSecrets() {}

    /** What engines use to reach the catalog: generated once, never rewritten (create-only). */
    public static Secret rootPrincipal(
            Instance inst, CatalogContext ctx, OwnerReference owner, String clientId, String clientSecret) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(CLIENT_ID, clientId);
        data.put(CLIENT_SECRET, clientSecret);
        data.put(CATALOG_URI, CatalogNames.internalUri(inst.name(), inst.namespace()));
        data.put(CATALOG_NAME, CatalogKind.spec(inst).catalogName());
        return secret(CatalogNames.rootPrincipalSecret(inst.name()), inst, ctx, owner, data);
    }

    /** Fixed token-broker key, so tokens survive restarts and work on every replica; read by Polaris alone. */
    public static Secret tokenBroker(Instance inst, CatalogContext ctx, OwnerReference owner, String key) {
        return Labels.privateSecret(
                secret(CatalogNames.tokenBrokerSecret(inst.name()), inst, ctx, owner, Map.of(SYMMETRIC_KEY, key)));
    }

    private static Secret secret(
            String name, Instance inst, CatalogContext ctx, OwnerReference owner, Map<String, String> values) {
        return new SecretBuilder()
                .withMetadata(CatalogLabels.meta(name, inst, ctx, CatalogLabels.CREDENTIALS, owner))
                .withType("Opaque")
                .withData(SecretData.encode(values))
                .build();
    }
}
