package io.lakehouse.common.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.lakehouse.common.problem.FieldError;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

    @ParameterizedTest
    @CsvSource({
        "1Gi, 1073741824",
        "512Mi, 536870912",
        "500m, 0.5",
        "1, 1",
        "1.5, 1.5",
        "2G, 2000000000",
        "1Ki, 1024",
        "3k, 3000",
    })
    void parsesValidQuantitiesToTheirValueInBaseUnits(String text, String expected) {
        assertThat(Quantities.parse(text)).hasValueSatisfying(
                value -> assertThat(value).isEqualByComparingTo(new BigDecimal(expected)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "1gb", "", "1e3", "Gi", "1 Gi", "1.", ".5", "+1", "1GI", "0x10"})
    void refusesWhatIsNotAQuantityWithEmptyNeverAnException(String text) {
        assertThatCode(() -> Quantities.parse(text)).doesNotThrowAnyException();
        assertThat(Quantities.parse(text)).isEmpty();
    }

    @Test
    void refusesNullAndAbsurdlyLongText() {
        assertThat(Quantities.parse(null)).isEmpty();
        assertThat(Quantities.parse("1".repeat(33))).isEmpty();
    }

    @Test
    void binaryAndDecimalSuffixesDiffer() {
        assertThat(Quantities.parse("1Gi").orElseThrow()).isGreaterThan(Quantities.parse("1G").orElseThrow());
    }

    @Test
    void checkReturnsTheValueWithinBounds() {
        Violations v = new Violations();
        Optional<BigDecimal> value = Quantities.check(v, "memory", "1Gi", "512Mi", "64Gi");
        assertThat(v.isEmpty()).isTrue();
        assertThat(value).hasValueSatisfying(x -> assertThat(x).isEqualByComparingTo("1073741824"));
    }

    @Test
    void checkAcceptsTheBoundsThemselves() {
        Violations v = new Violations();
        Quantities.check(v, "memory", "512Mi", "512Mi", "64Gi");
        Quantities.check(v, "memory", "64Gi", "512Mi", "64Gi");
        assertThat(v.isEmpty()).isTrue();
    }

    @Test
    void checkComparesByValueNotBySpelling() {
        Violations v = new Violations();
        Quantities.check(v, "cpu", "0.1", "100m", "32");
        assertThat(v.isEmpty()).isTrue();
    }

    @Test
    void checkRefusesBelowTheMinimum() {
        Violations v = new Violations();
        Optional<BigDecimal> value = Quantities.check(v, "memory", "511Mi", "512Mi", "64Gi");
        assertThat(value).isEmpty();
        assertThat(v.errors()).containsExactly(new FieldError("memory", "must be at least 512Mi"));
    }

    @Test
    void checkRefusesAboveTheMaximum() {
        Violations v = new Violations();
        Quantities.check(v, "memory", "65Gi", "512Mi", "64Gi");
        assertThat(v.errors()).containsExactly(new FieldError("memory", "must be at most 64Gi"));
    }

    @Test
    void checkWithoutMaximumHasNoUpperBound() {
        Violations v = new Violations();
        Quantities.check(v, "storage", "100Ei", "1Gi", null);
        assertThat(v.isEmpty()).isTrue();
    }

    @Test
    void checkRefusesMalformedTextQuotingIt() {
        Violations v = new Violations();
        Quantities.check(v, "memory", "1gb", "512Mi", "64Gi");
        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("memory");
            assertThat(e.message()).contains("'1gb'").contains("not a Kubernetes quantity");
        });
    }

    @Test
    void checkRequiresAValue() {
        Violations v = new Violations();
        Quantities.check(v, "memory", null, "512Mi", "64Gi");
        assertThat(v.errors()).containsExactly(new FieldError("memory", "is required"));
    }
}
