package io.lakehouse.catalog.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** A page of a list; {@code continue} is the opaque token of the next page, absent on the last. */
public record InstancePage(
        List<InstanceView> items,
        @JsonInclude(JsonInclude.Include.NON_NULL) @com.fasterxml.jackson.annotation.JsonProperty("continue")
        String continueToken) {}
