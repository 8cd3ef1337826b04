package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.domain.Subjects;
import io.lakehouse.common.security.Subject;
import java.util.List;

/** The grants of an instance, subjects in wire form. */
public record GrantList(String namespace, String kind, String name, List<String> subjects) {

    static GrantList of(InstanceKey key, List<Subject> subjects) {
        return new GrantList(key.namespace(), key.kind(), key.name(), subjects.stream().map(Subjects::wire).toList());
    }
}
