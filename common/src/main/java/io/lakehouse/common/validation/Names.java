package io.lakehouse.common.validation;

import java.util.List;
import java.util.regex.Pattern;

/**
 * DNS-1123 label rules for instance names and every name derived from them, including the public
 * host label {@code <name>-<namespace>}.
 */
public final class Names {

    public static final int MAX_LABEL = 63;
    private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private Names() {}

    public static boolean isDns1123Label(String value) {
        return value != null && value.length() <= MAX_LABEL && DNS_1123_LABEL.matcher(value).matches();
    }

    public static boolean isDns1035Label(String value) {
        return value != null && value.length() <= MAX_LABEL && DNS_1035_LABEL.matcher(value).matches();
    }

    /** The public host label of an instance. */
    public static String hostLabel(String name, String namespace) {
        return name + "-" + namespace;
    }

    /**
     * Checks an instance name: a DNS-1123 label (and DNS-1035, since Services need it), every derived
     * name {@code name + suffix} within 63 characters, and the public host label.
     */
    public static void checkInstanceName(
            Violations v, String field, String name, String namespace, List<String> derivedSuffixes) {
        if (name == null || name.isEmpty()) {
            v.add(field, "is required");
            return;
        }
        if (!isDns1035Label(name)) {
            v.add(field, "must be lowercase letters, digits and '-', start with a letter, end with a letter or"
                    + " digit, and have at most 63 characters");
            return;
        }
        int longestSuffix = derivedSuffixes.stream().mapToInt(String::length).max().orElse(0);
        if (name.length() + longestSuffix > MAX_LABEL) {
            v.add(field, "is too long: derived names such as '" + name + longest(derivedSuffixes)
                    + "' must fit in 63 characters (at most " + (MAX_LABEL - longestSuffix) + " here)");
        } else if (hostLabel(name, namespace).length() > MAX_LABEL) {
            v.add(field, "is too long: the public host label '" + hostLabel(name, namespace)
                    + "' must fit in 63 characters (at most " + (MAX_LABEL - namespace.length() - 1)
                    + " in this namespace)");
        }
    }

    private static String longest(List<String> suffixes) {
        return suffixes.stream().reduce("", (a, b) -> b.length() > a.length() ? b : a);
    }
}
