package io.lakehouse.engines.kinds.sparkconnect;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.lakehouse.common.kube.EnvVars;

/** An environment variable taken from a key of a Secret: how secret values reach Spark. */
record SecretEnv(String name, String secret, String key) {

    EnvVar envVar() {
        return EnvVars.fromSecret(name, secret, key);
    }
}
