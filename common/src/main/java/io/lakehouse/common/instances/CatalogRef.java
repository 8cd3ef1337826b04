package io.lakehouse.common.instances;

import io.lakehouse.common.storage.StorageSpec;

/**
 * An {@code iceberg-catalog} of a namespace, as catalog-service announces it: the engine's default
 * warehouse and bucket come from it. Its credentials are in its {@code <name>-root-principal} Secret
 * (keys clientId, clientSecret, catalogUri, catalogName), which engines read by reference.
 */
public record CatalogRef(String namespace, String name, String catalogName, StorageSpec storage, String phase,
        boolean deleting) {

    public static String rootPrincipalSecret(String catalog) {
        return catalog + "-root-principal";
    }

    public boolean ready() {
        return "Ready".equals(phase) && !deleting;
    }
}
