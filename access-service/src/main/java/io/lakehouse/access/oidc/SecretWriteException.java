package io.lakehouse.access.oidc;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lakehouse.access.domain.InstanceKey;

/** The {@code <name>-oidc} Secret could not be written: the client exists, the pods do not have its secret yet. */
public class SecretWriteException extends RuntimeException {

    public SecretWriteException(InstanceKey key, RuntimeException cause) {
        super("writing Secret " + OidcClientSpec.secretName(key) + " (retried): " + summary(cause), cause);
    }

    /** The HTTP status of the API server when it answered, else the exception type: no bodies (they may echo data). */
    private static String summary(RuntimeException e) {
        if (e instanceof KubernetesClientException k && k.getCode() > 0) {
            return "the Kubernetes API answered HTTP " + k.getCode();
        }
        return e.getClass().getSimpleName();
    }
}
