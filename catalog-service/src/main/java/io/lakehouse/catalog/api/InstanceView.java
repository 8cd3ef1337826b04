package io.lakehouse.catalog.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.common.kube.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An instance as the API shows it: the stored spec (never a secret value) and its status. */
public record InstanceView(
        String name, String namespace, String kind, CatalogSpec spec, Status status, String createdBy,
        Instant createdAt, long generation) {

    /** {@code usedBy}: instances of other services using this catalog (only on a single GET). */
    public record Status(String phase, List<Condition> conditions, Map<String, String> endpoints, List<String> secrets,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> usedBy) {}

    public static InstanceView of(CatalogInstance inst, String domain) {
        return of(inst, domain, null);
    }

    public static InstanceView of(CatalogInstance inst, String domain, List<String> usedBy) {
        Map<String, String> endpoints = Map.of(
                "internal", CatalogNames.internalUri(inst.name(), inst.namespace()),
                "public", CatalogNames.publicUri(inst.name(), inst.namespace(), domain));
        return new InstanceView(inst.name(), inst.namespace(), CatalogInstance.KIND, inst.spec(),
                new Status(inst.phase().name(), inst.conditions(), endpoints,
                        List.of(CatalogNames.rootPrincipalSecret(inst.name())), usedBy),
                inst.createdBy(), inst.createdAt(), inst.generation());
    }
}
