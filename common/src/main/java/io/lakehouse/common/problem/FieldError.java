package io.lakehouse.common.problem;

/** One invalid field of a request, by JSON path (e.g. {@code spec.resources.memory}). */
public record FieldError(String field, String message) {}
