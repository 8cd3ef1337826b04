package io.lakehouse.engines.kinds.nifi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.ResourcesSpec;

/**
 * The fields of the {@code nifi} template.
 *
 * @param heap JVM heap (initial and maximum)
 * @param resources memory and CPU of the NiFi container; memory at least heap + 1Gi
 * @param volumeSize the volume of the flow and repositories (fixed at creation)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NifiSpec(String heap, ResourcesSpec resources, String volumeSize) implements InstanceSpec {

    public static final String DEFAULT_HEAP = "2Gi";
    /** Room for metaspace, direct buffers and threads when only the heap is given. */
    public static final String DEFAULT_HEADROOM = "2Gi";
    public static final String DEFAULT_MEMORY = "4Gi";
    public static final String DEFAULT_CPU = "2";
    public static final String DEFAULT_VOLUME_SIZE = "10Gi";

    /** The same spec with every omitted field at its default; memory defaults to heap + 2Gi. */
    NifiSpec withDefaults() {
        String h = heap == null ? DEFAULT_HEAP : heap;
        ResourcesSpec r = resources == null ? new ResourcesSpec(null, null) : resources;
        String memory = ByteSizes.sum(h, DEFAULT_HEADROOM).orElse(DEFAULT_MEMORY);
        return new NifiSpec(h, r.orDefaults(memory, DEFAULT_CPU),
                volumeSize == null ? DEFAULT_VOLUME_SIZE : volumeSize);
    }
}
