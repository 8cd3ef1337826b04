package io.lakehouse.access.domain;

import io.lakehouse.common.security.Subject;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The wire form of a member or grantee: {@code user:<name>} or {@code group:<name>}. */
public final class Subjects {

    private static final Pattern WIRE = Pattern.compile("(user|group):([A-Za-z0-9._@-]{1,128})");

    private Subjects() {}

    /** Empty for anything that is not exactly {@code user:<name>} or {@code group:<name>}. */
    public static Optional<Subject> parse(String wire) {
        if (wire == null) {
            return Optional.empty();
        }
        Matcher m = WIRE.matcher(wire);
        return m.matches() ? Optional.of(new Subject(Subject.Type.fromWireName(m.group(1)), m.group(2)))
                : Optional.empty();
    }

    public static String wire(Subject subject) {
        return subject.type().wireName() + ":" + subject.name();
    }

    public static String describeRule() {
        return "must be user:<name> or group:<name>, the name 1-128 characters of A-Z a-z 0-9 . _ @ -";
    }

    public static String notMember(String namespace, Subject subject) {
        return wire(subject) + " is not a member of namespace '" + namespace + "'";
    }
}
