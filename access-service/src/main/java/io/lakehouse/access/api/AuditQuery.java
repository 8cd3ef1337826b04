package io.lakehouse.access.api;

import io.lakehouse.common.api.Paging;
import io.lakehouse.common.problem.ApiException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** {@code ?since=&limit=&continue=} of the audit log; the token is the last sequence number, encoded. */
final class AuditQuery {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private AuditQuery() {}

    static int limit(Integer requested) {
        return Paging.limit(requested, DEFAULT_LIMIT, MAX_LIMIT);
    }

    static Instant since(String since) {
        if (since == null || since.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw ApiException.invalid("since", "must be an RFC 3339 UTC time such as 2026-01-31T12:00:00Z");
        }
    }

    static long after(String token) {
        String key = Paging.after(token);
        if (key == null) {
            return 0;
        }
        try {
            return Long.parseLong(key);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("the continue token is not valid");
        }
    }

    static String token(long seq) {
        return Paging.token(Long.toString(seq));
    }
}
