package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** The recommended labels every generated object carries, and the annotations the suite owns. */
public final class Labels {

    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String COMPONENT = "app.kubernetes.io/component";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    public static final String PART_OF_VALUE = "lakehouse";
    /** The template kind of the instance an object belongs to, e.g. {@code iceberg-catalog}. */
    public static final String INSTANCE_KIND = "lakehouse.io/kind";
    /**
     * The uid of the instance an object belongs to: the apply primitive never takes over an object
     * that carries another instance's uid (see {@link Ownership}).
     */
    public static final String INSTANCE_UID = "lakehouse.io/instance-uid";
    /** Checksum of the desired state, see {@link Checksums}. */
    public static final String CHECKSUM = "lakehouse.io/checksum";
    /**
     * {@code "true"} on a Secret that only its instance's own pods read (a signing key, a shared secret between its
     * nodes): the other services' caches of Secrets leave it out ({@link InformerCache#withOthersSecrets}).
     */
    public static final String PRIVATE = "lakehouse.io/private";

    private Labels() {}

    /** The labels of an instance's object, with the instance's uid. */
    public static Map<String, String> of(String app, String kind, String instance, UUID uid, String component,
            String managedBy) {
        Map<String, String> labels = of(app, kind, instance, component, managedBy);
        labels.put(INSTANCE_UID, uid.toString());
        return labels;
    }

    /** The labels of an object that goes with an instance but is not written by its reconciler. */
    public static Map<String, String> of(String app, String kind, String instance, String component, String managedBy) {
        Map<String, String> labels = new TreeMap<>(selector(app, instance, component));
        labels.put(MANAGED_BY, managedBy);
        labels.put(PART_OF, PART_OF_VALUE);
        labels.put(INSTANCE_KIND, kind);
        return labels;
    }

    /** {@code secret} labelled {@link #PRIVATE}: read by its instance's own pods only. */
    public static Secret privateSecret(Secret secret) {
        return new SecretBuilder(secret).editMetadata().addToLabels(PRIVATE, "true").endMetadata().build();
    }

    /** The stable subset used in pod selectors (never changes over an instance's life). */
    public static Map<String, String> selector(String app, String instance, String component) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(NAME, app);
        labels.put(INSTANCE, instance);
        labels.put(COMPONENT, component);
        return labels;
    }
}
