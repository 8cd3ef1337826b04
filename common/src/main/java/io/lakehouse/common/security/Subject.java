package io.lakehouse.common.security;

/** A user or a group, as memberships and grants name them. */
public record Subject(Type type, String name) {

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
