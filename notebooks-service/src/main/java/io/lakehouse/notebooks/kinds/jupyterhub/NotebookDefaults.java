package io.lakehouse.notebooks.kinds.jupyterhub;

/**
 * The cluster's default notebook image (the seed's {@code ds/jupyter-datastack}, overridable in the
 * cluster settings for registries without it) and its tag.
 */
public record NotebookDefaults(String image, String version) {}
