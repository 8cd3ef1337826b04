package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Map;

/**
 * One object as an apply left it: the version it wrote or verified, and the checksum of the desired state that
 * version carries (null for a Secret, compared by the digest of its data). {@link InformerCache#stillAsApplied} tells
 * whether the object is still so.
 */
public record AppliedVersion(String kindKey, String name, String resourceVersion, String checksum) {

    /** {@code desired} after the {@link Applier} applied it (stamped with its checksum), {@code live} what it left. */
    public static AppliedVersion of(HasMetadata desired, HasMetadata live) {
        Map<String, String> annotations = desired.getMetadata().getAnnotations();
        String checksum = desired instanceof Secret || annotations == null ? null : annotations.get(Labels.CHECKSUM);
        // Interned: the same strings as the cache's compact copies hold (kind, name, the checksum they are marked with).
        return new AppliedVersion(Interned.of(ResourceKind.keyOf(desired)), Interned.of(live.getMetadata().getName()),
                live.getMetadata().getResourceVersion(), Interned.of(checksum));
    }
}
