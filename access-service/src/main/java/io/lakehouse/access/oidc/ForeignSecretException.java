package io.lakehouse.access.oidc;

/** A {@code <name>-oidc} Secret exists that access-service did not write for the instance: a tenant's, left alone. */
public class ForeignSecretException extends RuntimeException {

    public ForeignSecretException(String secretName, String managedBy) {
        super("Secret " + secretName + " exists and was not written by " + managedBy
                + " for this instance: left alone; rename or remove it and the instance's Secret is written");
    }
}
