package io.lakehouse.access.api;

/** PUT body of a membership: {@code {"role": "viewer|operator|admin"}}. */
public record MemberRequest(String role) {}
