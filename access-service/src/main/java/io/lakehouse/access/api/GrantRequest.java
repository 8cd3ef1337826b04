package io.lakehouse.access.api;

import io.lakehouse.access.domain.Subjects;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.validation.Violations;
import java.util.LinkedHashSet;
import java.util.List;

/** POST body of grants: {@code {"subjects": ["user:alice", "group:analysts"]}}, at most 100. */
public record GrantRequest(List<String> subjects) {

    static final int MAX_SUBJECTS = 100;

    /** The distinct subjects, or 422 with every bad entry. */
    List<Subject> validSubjects() {
        Violations v = new Violations();
        if (subjects == null || subjects.isEmpty()) {
            v.add("subjects", "is required: one to " + MAX_SUBJECTS + " subjects");
        } else if (subjects.size() > MAX_SUBJECTS) {
            v.add("subjects", "has " + subjects.size() + " entries; at most " + MAX_SUBJECTS + " per request");
        } else {
            for (int i = 0; i < subjects.size(); i++) {
                if (Subjects.parse(subjects.get(i)).isEmpty()) {
                    v.add("subjects[" + i + "]", Subjects.describeRule());
                }
            }
        }
        v.throwIfAny();
        return List.copyOf(new LinkedHashSet<>(subjects.stream().map(s -> Subjects.parse(s).orElseThrow()).toList()));
    }
}
