package io.lakehouse.catalog.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.kube.Condition;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The {@code instance.*} events of a catalog. Data carries what other services need to use the
 * catalog (names, internal endpoint, names of the Secrets holding credentials), never a secret value.
 */
public final class InstanceEvents {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private InstanceEvents() {}

    public static LakehouseEvent of(String source, EventType type, CatalogInstance inst, Phase phase,
            List<Condition> conditions, Instant at) {
        ObjectNode data = JSON.createObjectNode()
                .put("namespace", inst.namespace())
                .put("kind", CatalogInstance.KIND)
                .put("name", inst.name())
                .put("generation", inst.generation())
                .put("phase", phase.name())
                .put("createdBy", inst.createdBy());
        data.set("conditions", JSON.valueToTree(conditions));
        ObjectNode spec = data.putObject("spec")
                .put("catalogName", inst.spec().catalogName())
                .put("realm", inst.spec().realm())
                .put("bucket", inst.spec().storage().bucket())
                .put("endpoint", inst.spec().storage().endpoint())
                .put("region", inst.spec().storage().region())
                .put("pathStyleAccess", inst.spec().storage().pathStyleAccess())
                .put("storageSecret", inst.spec().storage().credentialsSecret())
                .put("internalUri", CatalogNames.internalUri(inst.name(), inst.namespace()))
                .put("rootPrincipalSecret", CatalogNames.rootPrincipalSecret(inst.name()));
        spec.putObject("resources")
                .put("memory", inst.spec().resources().memory())
                .put("cpu", inst.spec().resources().cpu());
        return new LakehouseEvent(UUID.randomUUID(), source, type,
                LakehouseEvent.instanceSubject(inst.namespace(), CatalogInstance.KIND, inst.name()), at, data);
    }
}
