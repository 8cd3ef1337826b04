package io.lakehouse.common.instances;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.kube.Condition;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The {@code instance.*} events of an instance. Data carries the stored spec (typed keys are already
 * replaced by their Secret's name), the endpoints, and what the kind publishes for others (e.g. the
 * Spark Connect job profile); never a secret value.
 */
public final class InstanceEvents {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private InstanceEvents() {}

    public static <C extends InstanceContext> LakehouseEvent of(String source, InstanceKind<C> kind, C ctx,
            EventType type, Instance inst, Phase phase, List<Condition> conditions, Instant at) {
        ObjectNode data = JSON.createObjectNode()
                .put("namespace", inst.namespace())
                .put("kind", inst.kind())
                .put("name", inst.name())
                .put("uid", inst.uid().toString())
                .put("generation", inst.generation())
                .put("phase", phase.name())
                .put("createdBy", inst.createdBy());
        data.set("conditions", JSON.valueToTree(conditions));
        ObjectNode spec = JSON.valueToTree(inst.spec());
        kind.describe(inst, ctx, spec);
        data.set("spec", spec);
        data.set("endpoints", JSON.valueToTree(kind.endpoints(inst, ctx)));
        return new LakehouseEvent(UUID.randomUUID(), source, type,
                LakehouseEvent.instanceSubject(inst.namespace(), inst.kind(), inst.name()), at, data);
    }
}
