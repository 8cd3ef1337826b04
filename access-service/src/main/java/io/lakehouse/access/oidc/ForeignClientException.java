package io.lakehouse.access.oidc;

/**
 * A Keycloak client has the id of an instance's client but not its mark (attribute
 * {@value KeycloakClients#MARK}): someone else's, never adopted, changed or deleted.
 */
public class ForeignClientException extends RuntimeException {

    public ForeignClientException(String clientId) {
        super("Keycloak client '" + clientId + "' exists but was not made for this instance (its "
                + KeycloakClients.MARK + " attribute differs): left alone; remove or rename it in Keycloak and the"
                + " instance's own client is created");
    }
}
