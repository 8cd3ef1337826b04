package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * An object the instance needs exists under its name but belongs to something else: the apply
 * primitive refuses to write it. The instance's status shows the message until the object is gone.
 */
public class ForeignObjectException extends RuntimeException {

    public ForeignObjectException(HasMetadata live) {
        super(live.getKind() + " '" + live.getMetadata().getName() + "' already exists in namespace '"
                + live.getMetadata().getNamespace() + "' and " + Ownership.describe(live)
                + ": it is left untouched; delete or rename it, or delete this instance");
    }
}
