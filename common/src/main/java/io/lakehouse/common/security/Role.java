package io.lakehouse.common.security;

import java.util.Arrays;
import java.util.Optional;

/** Namespace roles, ordered: each includes the rights of the ones before it. */
public enum Role {
    VIEWER("viewer"),
    OPERATOR("operator"),
    ADMIN("admin");

    private final String wireName;

    Role(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean includes(Role other) {
        return compareTo(other) >= 0;
    }

    public static Optional<Role> fromWireName(String name) {
        return Arrays.stream(values()).filter(r -> r.wireName.equals(name)).findFirst();
    }
}
