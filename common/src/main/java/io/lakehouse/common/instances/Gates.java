package io.lakehouse.common.instances;


/**
 * What an instance depends on outside its own objects.
 *
 * @param catalogName the referenced iceberg-catalog, or null when the kind uses none
 * @param catalog its last known state, or null when it is not (or no longer) known
 * @param oidcWanted whether the kind waits for an OIDC client
 * @param oidcReady whether access-service has published it
 */
public record Gates(String catalogName, CatalogRef catalog, boolean oidcWanted, boolean oidcReady) {

    /** Workloads start only once their OIDC client Secret exists (their pods read it). */
    public boolean mayDeploy() {
        return !oidcWanted || oidcReady;
    }
}
