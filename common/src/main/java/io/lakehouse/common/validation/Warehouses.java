package io.lakehouse.common.validation;

import java.util.regex.Pattern;

/**
 * The one rule for warehouse (Polaris catalog) names, used by every kind that creates or names one:
 * Polaris refuses {@code system} in any case (and names over 256 characters); the platform narrows
 * that to a letter followed by letters, digits, '_' and '-', at most 63 characters, because the name
 * is written into properties files, environment variables and REST paths without quoting.
 */
public final class Warehouses {

    public static final int MAX_LENGTH = 63;
    /** Polaris' reserved catalog name (its pattern {@code ^(?!\s*[sS][yY][sS][tT][eE][mM]$).*$}). */
    public static final String RESERVED = "system";
    public static final String RULE = "must start with a letter, use letters, digits, '_' and '-', have at most "
            + MAX_LENGTH + " characters, and not be '" + RESERVED + "' (a Polaris catalog name)";
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0," + (MAX_LENGTH - 1) + "}");

    private Warehouses() {}

    public static boolean isValid(String name) {
        return name != null && NAME.matcher(name).matches() && !RESERVED.equalsIgnoreCase(name);
    }

    /** Adds {@link #RULE} for {@code field} when {@code name} breaks it (a missing name included). */
    public static void check(Violations v, String field, String name) {
        if (!isValid(name)) {
            v.add(field, RULE);
        }
    }
}
