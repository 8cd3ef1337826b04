package io.lakehouse.catalog.api;

import io.lakehouse.common.problem.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** {@code ?limit=&continue=}: the token is the last name of the previous page, encoded. */
final class Paging {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private Paging() {}

    static int limit(Integer requested) {
        if (requested == null) {
            return DEFAULT_LIMIT;
        }
        if (requested < 1 || requested > MAX_LIMIT) {
            throw ApiException.invalid("limit", "must be between 1 and " + MAX_LIMIT);
        }
        return requested;
    }

    static String after(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("the continue token is not valid");
        }
    }

    static String token(String lastName) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(lastName.getBytes(StandardCharsets.UTF_8));
    }
}
