package io.lakehouse.common.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WarehousesTest {

    @ParameterizedTest
    @ValueSource(strings = {"lakehouse", "sales_dw", "Sales-DW", "w", "systems", "my_system"})
    void polarisCatalogNamesThePlatformWritesSafelyAreAccepted(String name) {
        assertThat(Warehouses.isValid(name)).isTrue();
        assertThat(Warehouses.isValid("c".repeat(63))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"system", "SYSTEM", "System", "", "1sales", "_x", "sales dw", "sales/2026", "sales.db",
            "sales\n", "x=y"})
    void reservedAndUnsafeNamesAreRefused(String name) {
        Violations v = new Violations();
        Warehouses.check(v, "spec.warehouse", name);
        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.warehouse");
            assertThat(e.message()).isEqualTo(Warehouses.RULE);
        });
    }

    @Test
    void aMissingOrTooLongNameIsRefused() {
        assertThat(Warehouses.isValid(null)).isFalse();
        assertThat(Warehouses.isValid("c".repeat(64))).isFalse();
    }
}
