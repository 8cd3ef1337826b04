package io.lakehouse.notebooks.kinds.jupyterhub;

import java.util.UUID;

/**
 * What the builders need of a stored {@code jupyterhub} instance; the service's adapter makes it from
 * its own instance type, so this package depends on no framework class.
 *
 * @param namespace the instance's namespace
 * @param name the instance name; every object is named after it
 * @param uid the instance's uid, on every object's labels
 * @param spec the spec with its defaults
 * @param createdBy the identity key of whoever deployed it: the hub's administrator
 */
public record HubInstance(String namespace, String name, UUID uid, JupyterHubSpec spec, String createdBy) {

    public static final String KIND = "jupyterhub";
}
