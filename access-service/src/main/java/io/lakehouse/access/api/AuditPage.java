package io.lakehouse.access.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.lakehouse.access.store.AuditEntry;
import java.util.List;

/** A page of the audit log; {@code continue} is the opaque token of the next page, absent on the last. */
public record AuditPage(
        List<AuditEntry> items,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("continue") String continueToken) {}
