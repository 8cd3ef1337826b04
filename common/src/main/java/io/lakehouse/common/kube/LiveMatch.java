package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lakehouse.common.validation.Quantities;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a live object still carries everything of its desired state. Fields the server or other
 * controllers add (defaults, status, uid, clusterIP) are ignored: only what we set is compared, so a
 * hand edit of one of our fields is seen as drift while server defaulting is not.
 */
public final class LiveMatch {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final Set<String> QUANTITY_PARENTS = Set.of("limits", "requests", "capacity");
    private static final String QUANTITY = " quantity";
    /** Never compared: what the server and the controllers write ({@link WholeJson#compared} leaves it out). */
    static final String STATUS = "status";
    /** What {@link #covers} compares of the metadata. */
    static final List<String> COMPARED_METADATA = List.of("labels", "annotations", "ownerReferences");

    private LiveMatch() {}

    public static boolean covers(HasMetadata desired, HasMetadata live) {
        return covers(SERIALIZATION.convertValue(desired, JsonNode.class),
                SERIALIZATION.convertValue(live, JsonNode.class));
    }

    /** {@link #covers} of the objects' JSON trees ({@code KubernetesSerialization}), for a caller that has them. */
    static boolean covers(JsonNode d, JsonNode l) {
        Iterator<Map.Entry<String, JsonNode>> fields = d.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            if (STATUS.equals(name)) {
                continue;
            }
            boolean ok = "metadata".equals(name) ? metadataCovers(field.getValue(), l.path("metadata"))
                    : subset(field.getValue(), l.path(name));
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #covers} for a Secret, whose values the cache does not hold ({@link CompactObject}): type and
     * metadata as usual, the data by digest, so a key added by hand counts as drift too.
     */
    public static boolean coversSecret(Secret desired, HasMetadata live) {
        Secret withoutData = new SecretBuilder(desired).withData(null).withStringData(null).build();
        return live instanceof Secret l && covers(withoutData, l)
                && CompactObject.dataDigest(desired).equals(CompactObject.dataDigest(l));
    }

    private static boolean metadataCovers(JsonNode desired, JsonNode live) {
        return COMPARED_METADATA.stream().allMatch(field -> subset(desired.path(field), live.path(field)));
    }

    static boolean subset(JsonNode desired, JsonNode live) {
        return subset(desired, live, "");
    }

    /** {@code parent} is the key of this node ({@link #QUANTITY} for values of limits/requests: compared by value). */
    private static boolean subset(JsonNode desired, JsonNode live, String parent) {
        if (desired.isMissingNode() || desired.isNull()) {
            return true;
        }
        if (desired.isObject()) {
            if (desired.isEmpty()) {
                return true;
            }
            if (!live.isObject()) {
                return false;
            }
            Iterator<Map.Entry<String, JsonNode>> fields = desired.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                String childKey = QUANTITY_PARENTS.contains(parent) ? QUANTITY : f.getKey();
                if (!subset(f.getValue(), live.path(f.getKey()), childKey)) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isArray()) {
            if (desired.isEmpty()) {
                return live.isMissingNode() || live.isNull() || live.isEmpty();
            }
            if (!live.isArray() || live.size() != desired.size()) {
                return false;
            }
            for (int i = 0; i < desired.size(); i++) {
                if (!subset(desired.get(i), live.get(i), parent)) {
                    return false;
                }
            }
            return true;
        }
        if (live.isMissingNode() || live.isNull()) {
            return false;
        }
        return desired.asText().equals(live.asText()) || QUANTITY.equals(parent) && sameQuantity(desired, live);
    }

    /** A real API server rewrites quantities canonically ("1.5" → "1500m", "1024Mi" → "1Gi"). */
    private static boolean sameQuantity(JsonNode desired, JsonNode live) {
        Optional<BigDecimal> d = Quantities.parse(desired.asText());
        Optional<BigDecimal> l = Quantities.parse(live.asText());
        return d.isPresent() && l.isPresent() && d.get().compareTo(l.get()) == 0;
    }
}
