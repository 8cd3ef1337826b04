package io.lakehouse.common.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lakehouse.common.validation.Violations;
import org.junit.jupiter.api.Test;

class ViolationsTest {

    @Test
    void noViolationThrowsNothing() {
        Violations v = new Violations();
        assertThat(v.isEmpty()).isTrue();
        assertThatCode(v::throwIfAny).doesNotThrowAnyException();
    }

    @Test
    void violationsBecomeA422CarryingEveryFieldErrorInOrder() {
        Violations v = new Violations()
                .add("name", "is required")
                .add("spec.storage.bucket", "is not valid")
                .add("spec.resources.memory", "must be at least 512Mi");
        ApiException e = catchThrowableOfType(ApiException.class, v::throwIfAny);
        assertThat(e.status()).isEqualTo(422);
        assertThat(e.code()).isEqualTo("invalid");
        assertThat(e.errors()).containsExactly(
                new FieldError("name", "is required"),
                new FieldError("spec.storage.bucket", "is not valid"),
                new FieldError("spec.resources.memory", "must be at least 512Mi"));
        assertThat(e.getMessage()).isEqualTo("3 fields are invalid");
    }

    @Test
    void aSingleViolationIsSummedUpAsFieldAndMessage() {
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> new Violations().add("name", "is required").throwIfAny());
        assertThat(e.getMessage()).isEqualTo("name: is required");
    }

    @Test
    void hasTellsWhichFieldsAreInvalid() {
        Violations v = new Violations().add("a", "x");
        assertThat(v.has("a")).isTrue();
        assertThat(v.has("b")).isFalse();
    }

    @Test
    void theErrorsListCannotBeChangedFromOutside() {
        Violations v = new Violations().add("a", "x");
        assertThatCode(() -> v.errors().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theProblemOfA422HasTheStableTypeAndEveryFieldError() {
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> new Violations().add("a", "x").add("b", "y").throwIfAny());
        Problem p = Problem.of(e);
        assertThat(p.status()).isEqualTo(422);
        assertThat(p.type()).isEqualTo("https://lakehouse.io/problems/invalid");
        assertThat(p.code()).isEqualTo("invalid");
        assertThat(p.errors()).extracting(FieldError::field).containsExactly("a", "b");
    }
}
