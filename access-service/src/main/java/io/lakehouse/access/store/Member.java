package io.lakehouse.access.store;

import io.lakehouse.common.security.Role;
import io.lakehouse.common.security.Subject;

/** A stored membership. */
public record Member(String namespace, Subject subject, Role role) {}
