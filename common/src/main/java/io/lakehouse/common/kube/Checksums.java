package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;

/** SHA-256 of an object's desired state, stamped on it as the {@link Labels#CHECKSUM} annotation. */
public final class Checksums {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final ObjectMapper CANONICAL =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private Checksums() {}

    public static String of(HasMetadata object) {
        JsonNode tree = SERIALIZATION.convertValue(object, JsonNode.class);
        JsonNode annotations = tree.path("metadata").path("annotations");
        if (annotations instanceof ObjectNode a) {
            a.remove(Labels.CHECKSUM);
            if (a.isEmpty()) {
                // Stamped or not, the same object must hash the same.
                ((ObjectNode) tree.get("metadata")).remove("annotations");
            }
        }
        return sha256(canonical(tree));
    }

    /** Sets the checksum annotation (computed without it) and returns the object. */
    public static <T extends HasMetadata> T stamp(T object) {
        String sum = of(object);
        if (object.getMetadata().getAnnotations() == null) {
            object.getMetadata().setAnnotations(new HashMap<>());
        }
        object.getMetadata().getAnnotations().put(Labels.CHECKSUM, sum);
        return object;
    }

    public static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String canonical(JsonNode tree) {
        try {
            Object plain = CANONICAL.treeToValue(tree, Object.class);
            return CANONICAL.writeValueAsString(plain);
        } catch (Exception e) {
            throw new IllegalStateException("cannot serialize desired state", e);
        }
    }
}
