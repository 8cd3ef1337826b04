package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.Secret;
import java.util.function.Supplier;

/**
 * A Secret whose values are generated once (tokens, keys, certificates). The reconciler builds it
 * only when the Secret does not exist, so costly generation (a certificate) happens once.
 */
public record GeneratedSecret(String name, Supplier<Secret> build) {}
