package io.lakehouse.common.validation;

import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import java.util.ArrayList;
import java.util.List;

/** Collects every field error of a request so the caller sees them all at once. */
public final class Violations {

    private final List<FieldError> errors = new ArrayList<>();

    public Violations add(String field, String message) {
        errors.add(new FieldError(field, message));
        return this;
    }

    public boolean isEmpty() {
        return errors.isEmpty();
    }

    public boolean has(String field) {
        return errors.stream().anyMatch(e -> e.field().equals(field));
    }

    public List<FieldError> errors() {
        return List.copyOf(errors);
    }

    /** 422 with every collected error, or nothing when the request is valid. */
    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw ApiException.invalid(errors);
        }
    }
}
