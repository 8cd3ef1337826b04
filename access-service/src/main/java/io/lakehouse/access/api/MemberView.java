package io.lakehouse.access.api;

import io.lakehouse.access.domain.Subjects;
import io.lakehouse.access.store.Member;

/** A membership as the API shows it: {@code {"subject": "user:alice", "role": "viewer"}}. */
public record MemberView(String subject, String role) {

    static MemberView of(Member m) {
        return new MemberView(Subjects.wire(m.subject()), m.role().wireName());
    }
}
