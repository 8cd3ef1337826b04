package io.lakehouse.common.instances;

/**
 * What a pass reads of an instance's dependencies, read with its row ({@link InstanceStore#findForPass}).
 *
 * @param catalog the catalog named in {@code spec.catalog} as catalog-service last announced it, or null
 * @param oidcClientReady whether access-service has written the instance's {@code <name>-oidc} client Secret
 * @param granted who holds a grant on the instance (and the members of the granted groups, where tracked)
 */
public record PassDependencies(CatalogRef catalog, boolean oidcClientReady, Granted granted) {

    public static final PassDependencies NONE = new PassDependencies(null, false, Granted.NONE);
}
