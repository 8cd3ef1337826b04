package io.lakehouse.common.instances.api;

import com.fasterxml.jackson.databind.JsonNode;

/** Body of {@code POST .../instances/{kind}}: the spec is read by the kind's own record. */
public record CreateInstanceRequest(String name, JsonNode spec) {}
