package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T10:05:00Z");

    private static Condition observed(String type, String status, String reason, long generation) {
        return new Condition(type, status, reason, "msg " + reason, null, generation);
    }

    @Test
    void aNewConditionTypeGetsNowAsTransitionTime() {
        List<Condition> merged = Conditions.merge(List.of(), List.of(observed("Ready", "False", "Starting", 1)), T0);
        assertThat(merged).singleElement().satisfies(c -> assertThat(c.lastTransitionTime()).isEqualTo(T0));
    }

    @Test
    void theTransitionTimeIsKeptWhileTheStatusStaysTheSame() {
        List<Condition> previous = Conditions.merge(List.of(), List.of(observed("Ready", "False", "Starting", 1)), T0);
        List<Condition> merged = Conditions.merge(previous, List.of(observed("Ready", "False", "StillStarting", 1)), T1);
        assertThat(merged).singleElement().satisfies(c -> {
            assertThat(c.lastTransitionTime()).isEqualTo(T0);
            assertThat(c.reason()).isEqualTo("StillStarting");
            assertThat(c.message()).isEqualTo("msg StillStarting");
        });
    }

    @Test
    void aFlipOfStatusGetsANewTransitionTime() {
        List<Condition> previous = Conditions.merge(List.of(), List.of(observed("Ready", "False", "Starting", 1)), T0);
        List<Condition> merged = Conditions.merge(previous, List.of(observed("Ready", "True", "Up", 1)), T1);
        assertThat(merged).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(Condition.TRUE);
            assertThat(c.lastTransitionTime()).isEqualTo(T1);
        });
    }

    @Test
    void observedGenerationIsTheNewOneEvenWhenTheTimeIsKept() {
        List<Condition> previous = Conditions.merge(List.of(), List.of(observed("Ready", "True", "Up", 1)), T0);
        List<Condition> merged = Conditions.merge(previous, List.of(observed("Ready", "True", "Up", 2)), T1);
        assertThat(merged).singleElement().satisfies(c -> {
            assertThat(c.observedGeneration()).isEqualTo(2);
            assertThat(c.lastTransitionTime()).isEqualTo(T0);
        });
    }

    @Test
    void eachTypeIsMergedOnItsOwnAndTheObservedOrderIsKept() {
        List<Condition> previous = Conditions.merge(List.of(),
                List.of(observed("A", "True", "ok", 1), observed("B", "False", "no", 1)), T0);
        List<Condition> merged = Conditions.merge(previous,
                List.of(observed("A", "True", "ok", 1), observed("B", "True", "yes", 1)), T1);
        assertThat(merged).extracting(Condition::type).containsExactly("A", "B");
        assertThat(Conditions.find(merged, "A").orElseThrow().lastTransitionTime()).isEqualTo(T0);
        assertThat(Conditions.find(merged, "B").orElseThrow().lastTransitionTime()).isEqualTo(T1);
    }

    @Test
    void conditionsNoLongerObservedAreDropped() {
        List<Condition> previous = Conditions.merge(List.of(), List.of(observed("Old", "True", "x", 1)), T0);
        assertThat(Conditions.merge(previous, List.of(observed("New", "True", "y", 1)), T1))
                .extracting(Condition::type).containsExactly("New");
    }

    @Test
    void anUnchangedObservationMergesToAnEqualList() {
        List<Condition> previous = Conditions.merge(List.of(), List.of(observed("Ready", "True", "Up", 1)), T0);
        assertThat(Conditions.merge(previous, List.of(observed("Ready", "True", "Up", 1)), T1)).isEqualTo(previous);
    }

    @Test
    void isTrueIsFalseForAMissingType() {
        List<Condition> list = List.of(observed("Ready", "True", "Up", 1), observed("Db", "False", "Down", 1));
        assertThat(Conditions.isTrue(list, "Ready")).isTrue();
        assertThat(Conditions.isTrue(list, "Db")).isFalse();
        assertThat(Conditions.isTrue(list, "Missing")).isFalse();
    }
}
