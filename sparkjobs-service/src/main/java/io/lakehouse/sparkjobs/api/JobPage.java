package io.lakehouse.sparkjobs.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** A page of the history; {@code continue} is the opaque token of the next page, absent on the last. */
public record JobPage(
        List<JobView> items,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("continue") String continueToken) {}
