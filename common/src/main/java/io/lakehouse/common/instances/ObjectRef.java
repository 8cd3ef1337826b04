package io.lakehouse.common.instances;

import io.lakehouse.common.kube.ResourceKind;

/** An object of the instance's namespace, by kind and name. */
public record ObjectRef(ResourceKind kind, String name) {}
