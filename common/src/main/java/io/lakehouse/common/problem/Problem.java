package io.lakehouse.common.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** RFC 9457 problem details, with the field errors of a validation failure. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, String code, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://lakehouse.io/problems/";

    public static Problem of(ApiException e) {
        return new Problem(TYPE_BASE + e.code(), e.title(), e.status(), e.getMessage(), e.code(), e.errors());
    }

    public static Problem of(int status, String code, String title, String detail) {
        return new Problem(TYPE_BASE + code, title, status, detail, code, List.of());
    }
}
