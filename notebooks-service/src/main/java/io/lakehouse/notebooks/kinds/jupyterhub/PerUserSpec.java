package io.lakehouse.notebooks.kinds.jupyterhub;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Capacity of each user server: the limits of its container (requested as much, so a server never
 * starts where it cannot get them) and the size of the personal volume made at its first start.
 *
 * @param cpu CPU limit, a Kubernetes quantity ({@code 1}, {@code 500m})
 * @param memory memory limit ({@code 2Gi})
 * @param storage size of each user's volume ({@code 10Gi}); a change applies to volumes made afterwards
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PerUserSpec(String cpu, String memory, String storage) {}
