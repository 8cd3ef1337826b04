package io.lakehouse.common.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.problem.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {

    private static final List<String> SUFFIXES = List.of("-db", "-root-principal");

    @ParameterizedTest
    @ValueSource(strings = {"a", "abc", "a-b", "a1", "1a", "0", "x-1-y"})
    void acceptsDns1123Labels(String name) {
        assertThat(Names.isDns1123Label(name)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "A", "a_b", "-a", "a-", "a.b", "a b", "é"})
    void refusesWhatIsNotADns1123Label(String name) {
        assertThat(Names.isDns1123Label(name)).isFalse();
    }

    @Test
    void refusesNullAsALabel() {
        assertThat(Names.isDns1123Label(null)).isFalse();
        assertThat(Names.isDns1035Label(null)).isFalse();
    }

    @Test
    void dns1035LabelsMustStartWithALetter() {
        assertThat(Names.isDns1035Label("abc")).isTrue();
        assertThat(Names.isDns1035Label("1abc")).isFalse();
        assertThat(Names.isDns1123Label("1abc")).isTrue();
    }

    @Test
    void labelsHaveAtMost63Characters() {
        assertThat(Names.isDns1123Label("a".repeat(63))).isTrue();
        assertThat(Names.isDns1123Label("a".repeat(64))).isFalse();
        assertThat(Names.isDns1035Label("a".repeat(63))).isTrue();
        assertThat(Names.isDns1035Label("a".repeat(64))).isFalse();
    }

    @Test
    void hostLabelIsNameDashNamespace() {
        assertThat(Names.hostLabel("cat", "team-a")).isEqualTo("cat-team-a");
    }

    @Test
    void aValidInstanceNameAddsNoViolation() {
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", "catalog", "team-a", SUFFIXES);
        assertThat(v.isEmpty()).isTrue();
    }

    @Test
    void aMissingInstanceNameIsRequired() {
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", "", "team-a", SUFFIXES);
        Names.checkInstanceName(v, "other", null, "team-a", SUFFIXES);
        assertThat(v.errors()).containsExactly(
                new FieldError("name", "is required"), new FieldError("other", "is required"));
    }

    @Test
    void anInstanceNameStartingWithADigitIsRefusedBecauseServicesNeedDns1035() {
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", "1catalog", "team-a", SUFFIXES);
        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("name");
            assertThat(e.message()).contains("start with a letter");
        });
    }

    @Test
    void anInstanceNameWhoseLongestDerivedNameExceeds63IsRefusedNamingThatDerivedName() {
        String name = "a".repeat(63 - "-root-principal".length() + 1);
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", name, "ns", SUFFIXES);
        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("name");
            assertThat(e.message())
                    .contains("derived names")
                    .contains("'" + name + "-root-principal'")
                    .contains("at most " + (63 - "-root-principal".length()));
        });
    }

    @Test
    void anInstanceNameWhoseLongestDerivedNameIsExactly63IsAccepted() {
        String name = "a".repeat(63 - "-root-principal".length());
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", name, "ns", SUFFIXES);
        assertThat(v.isEmpty()).isTrue();
    }

    @Test
    void anInstanceNameWhoseHostLabelExceeds63IsRefusedNamingTheHostLabel() {
        String namespace = "n".repeat(40);
        String name = "a".repeat(63 - namespace.length()); // name + "-" + namespace = 64
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", name, namespace, SUFFIXES);
        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("name");
            assertThat(e.message())
                    .contains("public host label")
                    .contains("'" + name + "-" + namespace + "'")
                    .contains("at most " + (63 - namespace.length() - 1) + " in this namespace");
        });
    }

    @Test
    void anInstanceNameWhoseHostLabelIsExactly63IsAccepted() {
        String namespace = "n".repeat(40);
        String name = "a".repeat(62 - namespace.length());
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", name, namespace, SUFFIXES);
        assertThat(v.isEmpty()).isTrue();
    }
}
