package io.lakehouse.common.instances.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** A page of a list; {@code continue} is the opaque token of the next page, absent on the last. */
public record InstancePage(
        List<InstanceView> items,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("continue") String continueToken) {}
