package io.lakehouse.engines.api;

import io.lakehouse.common.kube.Condition;
import io.lakehouse.engines.domain.EngineInstance;
import io.lakehouse.engines.domain.EngineKind;
import io.lakehouse.engines.domain.EngineKinds;
import io.lakehouse.engines.domain.EngineSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An instance as the API shows it: the stored spec (never a secret value) and its status. */
public record InstanceView(
        String name, String namespace, String kind, EngineSpec spec, Status status, String createdBy,
        Instant createdAt, long generation) {

    public record Status(String phase, List<Condition> conditions, Map<String, String> endpoints, List<String> secrets) {}

    public static InstanceView of(EngineInstance inst, EngineContext ctx) {
        EngineKind kind = EngineKinds.of(inst.kind());
        return new InstanceView(inst.name(), inst.namespace(), inst.kind(), inst.spec(),
                new Status(inst.phase().name(), inst.conditions(), kind.endpoints(inst, ctx), kind.secrets(inst)),
                inst.createdBy(), inst.createdAt(), inst.generation());
    }
}
