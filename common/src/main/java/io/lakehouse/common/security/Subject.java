package io.lakehouse.common.security;

import java.util.Locale;

/**
 * A user or a group, as memberships and grants name them. The identity key of a user is its lowercased
 * username (the token's {@code preferred_username}, the principal of every service): Keycloak stores
 * usernames lowercased and the realm forbids editing them, so the key is stable and readable in
 * {@code user:bob}. Users are normalized here, so every comparison (roles, grants, forward-auth, audit)
 * sees one spelling. A group is its full path ({@code /data-team}, {@code /org/platform-admins}), compared
 * exactly: two groups of one name in different parents are different groups.
 */
public record Subject(Type type, String name) {

    public Subject {
        if (type == Type.USER && name != null) {
            name = normalizeUser(name);
        }
    }

    /** The identity key of a username: lowercased (root locale, so {@code I} never becomes a dotless i). */
    public static String normalizeUser(String username) {
        return username.toLowerCase(Locale.ROOT);
    }

    public enum Type {
        USER("user"),
        GROUP("group");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Type fromWireName(String name) {
            for (Type t : values()) {
                if (t.wireName.equals(name)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown subject type: " + name);
        }
    }

    public static Subject user(String name) {
        return new Subject(Type.USER, name);
    }

    public static Subject group(String name) {
        return new Subject(Type.GROUP, name);
    }
}
