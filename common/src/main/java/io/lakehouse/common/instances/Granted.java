package io.lakehouse.common.instances;

import io.lakehouse.common.security.Subject;
import java.util.List;
import java.util.Map;

/**
 * Who holds a grant on an instance ({@code subjects}: users first, each type by name, a stable order for generated
 * files) and, where the service tracks them, the members of the granted groups ({@code groupMembers}: group path to
 * usernames, for engines that cannot read groups from a token, Trino); read by a pass in one statement.
 */
public record Granted(List<Subject> subjects, Map<String, List<String>> groupMembers) {

    public static final Granted NONE = new Granted(List.of(), Map.of());
}
