package io.lakehouse.common.instances;

/** Memory and CPU of a container: both request and limit (the namespace quota requires limits). */
public record ResourcesSpec(String memory, String cpu) {

    public ResourcesSpec orDefaults(String defaultMemory, String defaultCpu) {
        return new ResourcesSpec(memory == null ? defaultMemory : memory, cpu == null ? defaultCpu : cpu);
    }
}
