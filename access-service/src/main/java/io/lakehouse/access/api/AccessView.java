package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.security.Subject;
import java.util.List;

/** "Who has access": the users and the groups whose members forward-auth lets in. */
public record AccessView(String namespace, String kind, String name, List<String> users, List<String> groups) {

    static AccessView of(InstanceKey key, List<Subject> grants) {
        return new AccessView(key.namespace(), key.kind(), key.name(), names(grants, Subject.Type.USER),
                names(grants, Subject.Type.GROUP));
    }

    private static List<String> names(List<Subject> grants, Subject.Type type) {
        return grants.stream().filter(s -> s.type() == type).map(Subject::name).sorted().toList();
    }
}
