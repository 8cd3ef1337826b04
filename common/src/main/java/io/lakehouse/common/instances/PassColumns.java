package io.lakehouse.common.instances;

import io.lakehouse.common.security.Subject;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sub-selects of a pass's read ({@link InstanceDependencies#passColumns}) over the service's own tables, written by
 * its consumers: {@code oidc_clients}, {@code instance_grants} and, where the service tracks them, the groups users
 * were last seen in ({@code user_groups_seen}).
 */
public final class PassColumns {

    /** Whether the instance's OIDC client Secret exists (access-service announced it). */
    public static final String OIDC_CLIENT_READY = ", EXISTS (SELECT FROM oidc_clients o"
            + " WHERE o.namespace = instances.namespace AND o.name = instances.name) AS oidc_client_ready";
    /** The instance's grants as a JSON array of [type, subject] (users first, each type by name: a stable order). */
    public static final String GRANTS = ", (SELECT json_agg(json_build_array(g.subject_type, g.subject)"
            + " ORDER BY g.subject_type DESC, g.subject) FROM instance_grants g"
            + " WHERE g.namespace = instances.namespace AND g.name = instances.name) AS granted";
    /** {@link #GRANTS} with one [type, subject, username] per user seen in a granted group (by group, then user). */
    public static final String GRANTS_WITH_MEMBERS = ", (SELECT json_agg(json_build_array(g.subject_type, g.subject,"
            + " u.username) ORDER BY g.subject_type DESC, g.subject, u.username) FROM instance_grants g"
            + " LEFT JOIN user_groups_seen u ON g.subject_type = 'group' AND u.group_path = g.subject"
            + " WHERE g.namespace = instances.namespace AND g.name = instances.name) AS granted";

    private PassColumns() {
    }

    public static boolean oidcClientReady(Row row) {
        return row.getBoolean("oidc_client_ready");
    }

    /** The grants of {@link #GRANTS} or {@link #GRANTS_WITH_MEMBERS}. */
    public static Granted granted(Row row) {
        JsonArray rows = (JsonArray) row.getValue("granted");
        if (rows == null) {
            return Granted.NONE; // json_agg over no row
        }
        List<Subject> subjects = new ArrayList<>();
        Map<String, List<String>> members = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            JsonArray grant = rows.getJsonArray(i);
            Subject subject = new Subject(Subject.Type.fromWireName(grant.getString(0)), grant.getString(1));
            if (subjects.isEmpty() || !subjects.get(subjects.size() - 1).equals(subject)) {
                subjects.add(subject); // a group's rows come together, one per member seen
            }
            String member = grant.size() > 2 ? grant.getString(2) : null;
            if (member != null) {
                members.computeIfAbsent(subject.name(), g -> new ArrayList<>()).add(member);
            }
        }
        return new Granted(subjects, members);
    }
}
