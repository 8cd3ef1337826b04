package io.lakehouse.sparkjobs.api;

/** A driver or executor pod of a job: its role ({@code driver}/{@code executor}) and phase. */
public record PodView(String name, String role, String phase) {}
