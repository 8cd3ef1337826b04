package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;

/** Environment entries; secret values always by reference, never inline. */
public final class EnvVars {

    private EnvVars() {}

    public static EnvVar value(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }

    public static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name)
                .withNewValueFrom().withNewSecretKeyRef().withName(secret).withKey(key).endSecretKeyRef().endValueFrom()
                .build();
    }
}
