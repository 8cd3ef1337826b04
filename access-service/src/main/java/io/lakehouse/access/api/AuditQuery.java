package io.lakehouse.access.api;

import io.lakehouse.common.problem.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/** {@code ?since=&limit=&continue=} of the audit log; the token is the last sequence number, encoded. */
final class AuditQuery {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private AuditQuery() {}

    static int limit(Integer requested) {
        if (requested == null) {
            return DEFAULT_LIMIT;
        }
        if (requested < 1 || requested > MAX_LIMIT) {
            throw ApiException.invalid("limit", "must be between 1 and " + MAX_LIMIT);
        }
        return requested;
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
        if (token == null || token.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("the continue token is not valid");
        }
    }

    static String token(long seq) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Long.toString(seq).getBytes(StandardCharsets.UTF_8));
    }
}
