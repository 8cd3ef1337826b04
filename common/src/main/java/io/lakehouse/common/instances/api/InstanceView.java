package io.lakehouse.common.instances.api;

import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceContext;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.kube.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An instance as the API shows it: the stored spec (never a secret value) and its status. */
public record InstanceView(
        String name, String namespace, String kind, InstanceSpec spec, Status status, String createdBy,
        Instant createdAt, long generation) {

    public record Status(String phase, List<Condition> conditions, Map<String, String> endpoints, List<String> secrets) {}

    public static <C extends InstanceContext> InstanceView of(Instance inst, InstanceKind<C> kind, C ctx) {
        return new InstanceView(inst.name(), inst.namespace(), inst.kind(), inst.spec(),
                new Status(inst.phase().name(), inst.conditions(), kind.endpoints(inst, ctx), kind.secrets(inst)),
                inst.createdBy(), inst.createdAt(), inst.generation());
    }
}
