package io.lakehouse.access.domain;

import io.lakehouse.common.security.Subject;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The wire form of a member or grantee: {@code user:<name>} or {@code group:<full path>}. A user name is
 * stored as its identity key (lowercased, see {@link Subject}); a group is the full path the tokens carry
 * ({@code /data-team}, {@code /org/team}), so a same-named group elsewhere in the realm is another subject.
 */
public final class Subjects {

    private static final Pattern USER = Pattern.compile("[A-Za-z0-9._@-]{1,128}");
    private static final Pattern GROUP = Pattern.compile("(/[A-Za-z0-9._@-]{1,128}){1,8}");
    private static final int MAX_GROUP = 255;

    private Subjects() {}

    /** Empty for anything that is not exactly {@code user:<name>} or {@code group:/<path>}. */
    public static Optional<Subject> parse(String wire) {
        if (wire == null) {
            return Optional.empty();
        }
        if (wire.startsWith("user:") && USER.matcher(wire.substring(5)).matches()) {
            return Optional.of(Subject.user(wire.substring(5)));
        }
        String group = wire.startsWith("group:") ? wire.substring(6) : "";
        if (group.length() <= MAX_GROUP && GROUP.matcher(group).matches()) {
            return Optional.of(Subject.group(group));
        }
        return Optional.empty();
    }

    public static String wire(Subject subject) {
        return subject.type().wireName() + ":" + subject.name();
    }

    public static String describeRule() {
        return "must be user:<name> (1-128 characters of A-Z a-z 0-9 . _ @ -, compared lowercased) or"
                + " group:<full path> (starting with '/', e.g. group:/data-team or group:/org/team; segments"
                + " of the same characters, at most 255 characters)";
    }

    public static String notMember(String namespace, Subject subject) {
        return wire(subject) + " is not a member of namespace '" + namespace + "'";
    }
}
