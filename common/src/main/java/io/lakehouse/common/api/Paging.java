package io.lakehouse.common.api;

import io.lakehouse.common.problem.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * {@code ?limit=&continue=} of every list: the continue token is the last key of the previous page,
 * opaque to clients (base64url).
 */
public final class Paging {

    private Paging() {}

    /** The page size, or 422 when outside {@code 1..max}. */
    public static int limit(Integer requested, int defaultLimit, int max) {
        if (requested == null) {
            return defaultLimit;
        }
        if (requested < 1 || requested > max) {
            throw ApiException.invalid("limit", "must be between 1 and " + max);
        }
        return requested;
    }

    /** The key a token stands for, null for the first page, or 400 when it is not a token of ours. */
    public static String after(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("the continue token is not valid");
        }
    }

    public static String token(String lastKey) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(lastKey.getBytes(StandardCharsets.UTF_8));
    }
}
