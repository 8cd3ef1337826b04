package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a live object may be written as one of an instance's objects. Names are derived from
 * instance names, so an object of that name can belong to someone else (another instance, another
 * service, a user): taking it over would overwrite or, on deletion, destroy it.
 */
public final class Ownership {

    private Ownership() {}

    /**
     * True when {@code live} carries the instance uid of {@code desired}; an object without a uid label
     * counts as the instance's own only when it has the same managing service, kind and instance labels
     * (written before uid labels existed). A desired object without a uid label is not checked.
     */
    public static boolean sameInstance(HasMetadata desired, HasMetadata live) {
        return sameInstance(labels(desired), live);
    }

    /** {@link #sameInstance(HasMetadata, HasMetadata)} for a desired object known by its labels, not built. */
    private static boolean sameInstance(Map<String, String> want, HasMetadata live) {
        String uid = want.get(Labels.INSTANCE_UID);
        if (uid == null) {
            return true;
        }
        Map<String, String> have = labels(live);
        if (have.containsKey(Labels.INSTANCE_UID)) {
            return uid.equals(have.get(Labels.INSTANCE_UID));
        }
        return have.get(Labels.MANAGED_BY) != null
                && Objects.equals(want.get(Labels.MANAGED_BY), have.get(Labels.MANAGED_BY))
                && Objects.equals(want.get(Labels.INSTANCE_KIND), have.get(Labels.INSTANCE_KIND))
                && Objects.equals(want.get(Labels.INSTANCE), have.get(Labels.INSTANCE));
    }

    /** Throws {@link ForeignObjectException} unless {@code live} may be written as {@code desired}. */
    public static void require(HasMetadata desired, HasMetadata live) {
        require(labels(desired), live);
    }

    /**
     * {@link #require(HasMetadata, HasMetadata)} for a desired object known by its labels: an object that exists is
     * checked without building what would be written in its place.
     */
    public static void require(Map<String, String> desiredLabels, HasMetadata live) {
        if (!sameInstance(desiredLabels, live)) {
            throw new ForeignObjectException(live);
        }
    }

    /** Who the live object says it belongs to, for the status message (no values of the object). */
    static String describe(HasMetadata live) {
        Map<String, String> have = labels(live);
        if (have.get(Labels.MANAGED_BY) == null) {
            return "it is not managed by the lakehouse services";
        }
        return "it belongs to the " + have.getOrDefault(Labels.INSTANCE_KIND, "unknown") + " instance '"
                + have.getOrDefault(Labels.INSTANCE, "?") + "' managed by " + have.get(Labels.MANAGED_BY);
    }

    private static Map<String, String> labels(HasMetadata o) {
        Map<String, String> labels = o.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }
}
