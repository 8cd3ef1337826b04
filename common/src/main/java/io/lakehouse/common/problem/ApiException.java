package io.lakehouse.common.problem;

import java.util.List;

/**
 * The one exception hierarchy of the API: each carries its HTTP status and a stable code, and
 * becomes an RFC 9457 problem response in {@link ProblemMapper}.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String title;
    private final List<FieldError> errors;

    public ApiException(int status, String code, String title, String detail, List<FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
        this.errors = List.copyOf(errors);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String title() {
        return title;
    }

    public List<FieldError> errors() {
        return errors;
    }

    public static ApiException badRequest(String detail) {
        return new ApiException(400, "bad-request", "Malformed request", detail, List.of());
    }

    public static ApiException notFound(String detail) {
        return new ApiException(404, "not-found", "Not found", detail, List.of());
    }

    public static ApiException conflict(String detail) {
        return new ApiException(409, "conflict", "Conflict", detail, List.of());
    }

    public static ApiException forbidden(String detail) {
        return new ApiException(403, "forbidden", "Forbidden", detail, List.of());
    }

    public static ApiException invalid(List<FieldError> errors) {
        return new ApiException(422, "invalid", "Invalid request", summary(errors), errors);
    }

    public static ApiException invalid(String field, String message) {
        return invalid(List.of(new FieldError(field, message)));
    }

    public static ApiException unavailable(String detail) {
        return new ApiException(503, "unavailable", "Service unavailable", detail, List.of());
    }

    private static String summary(List<FieldError> errors) {
        return errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are invalid";
    }
}
