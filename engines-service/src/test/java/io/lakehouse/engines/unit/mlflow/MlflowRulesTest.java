package io.lakehouse.engines.unit.mlflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.kinds.mlflow.DatabaseSpec;
import io.lakehouse.engines.kinds.mlflow.MlflowKind;
import io.lakehouse.engines.kinds.mlflow.MlflowSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Defaults and rules of the mlflow template: what a 422 tells the user. */
class MlflowRulesTest {

    private static final MlflowKind KIND = MlflowFixtures.KIND;

    @Test
    void omittedFieldsTakeTheTemplateDefaults() {
        assertThat(MlflowFixtures.spec(MlflowFixtures.bucketOnly())).isEqualTo(new MlflowSpec(
                EngineFixtures.bucket(), "mlflow", 2, new ResourcesSpec("2Gi", "1"), new DatabaseSpec("1Gi")));
        assertThat(errors("tracking", MlflowFixtures.bucketOnly())).isEmpty();
    }

    @Test
    void givenFieldsAreKeptAndAPartialResourcesBlockIsCompleted() {
        MlflowSpec given = new MlflowSpec(EngineFixtures.bucket(), "ml/runs", 4, new ResourcesSpec("4Gi", "2"),
                new DatabaseSpec("20Gi"));
        assertThat(MlflowFixtures.spec(given)).isEqualTo(given);
        assertThat(MlflowFixtures.spec(new MlflowSpec(EngineFixtures.bucket(), null, null,
                new ResourcesSpec("8Gi", null), null)).resources()).isEqualTo(new ResourcesSpec("8Gi", "1"));
    }

    @Test
    void theBucketIsRequiredAndChecked() {
        Violations v = new Violations();
        KIND.checkCreate(v, "tracking", EngineFixtures.NAMESPACE, KIND.withDefaults(null, Optional.empty()));

        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.storage");
            assertThat(e.message()).contains("is required");
        });
        assertThat(errors("tracking", new MlflowSpec(MlflowFixtures.inlineKeys(), null, null, null, null))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"mlflow", "team-a/mlflow", "ml_flow.v2/runs-1", "A/b/C"})
    void safeKeyPrefixesAreAccepted(String prefix) {
        assertThat(errors("tracking", prefix(prefix))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/mlflow", "mlflow/", "a//b", "../mlflow", "a/../b", ".hidden", "a b", "a?b", "é"})
    void unsafeKeyPrefixesAreRefused(String prefix) {
        assertThat(errors("tracking", prefix(prefix))).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.artifactsPrefix");
            assertThat(e.message()).contains("S3 key prefix");
        });
    }

    @Test
    void aTooLongPrefixIsRefused() {
        assertThat(errors("tracking", prefix("p".repeat(200)))).isEmpty();
        assertThat(errors("tracking", prefix("p".repeat(201)))).extracting(FieldError::field)
                .containsExactly("spec.artifactsPrefix");
    }

    @Test
    void workersStayWithinOneToSixteen() {
        assertThat(errors("tracking", workers(1))).isEmpty();
        assertThat(errors("tracking", workers(16))).isEmpty();
        assertThat(errors("tracking", workers(0))).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.workers");
            assertThat(e.message()).contains("between 1 and 16");
        });
        assertThat(errors("tracking", workers(17))).extracting(FieldError::field).containsExactly("spec.workers");
    }

    @Test
    void wrongQuantitiesAreRefusedFieldByField() {
        List<FieldError> errors = errors("tracking", new MlflowSpec(EngineFixtures.bucket(), null, null,
                new ResourcesSpec("4GB", "-1"), new DatabaseSpec("ten")));

        assertThat(errors).extracting(FieldError::field).containsExactlyInAnyOrder(
                "spec.resources.memory", "spec.resources.cpu", "spec.database.storageSize");
        assertThat(errors).allSatisfy(e -> assertThat(e.message()).contains("is not a Kubernetes quantity"));
    }

    @Test
    void quantitiesOutsideTheirRangeAreRefused() {
        assertThat(errors("tracking", new MlflowSpec(EngineFixtures.bucket(), null, null,
                new ResourcesSpec("512Mi", "100m"), new DatabaseSpec("500Mi"))))
                .extracting(FieldError::field).containsExactlyInAnyOrder(
                        "spec.resources.memory", "spec.resources.cpu", "spec.database.storageSize");
        assertThat(errors("tracking", new MlflowSpec(EngineFixtures.bucket(), null, null,
                new ResourcesSpec("65Gi", "17"), new DatabaseSpec("11Ti"))))
                .allSatisfy(e -> assertThat(e.message()).startsWith("must be at most"));
    }

    @Test
    void theNameLeavesRoomForTheDatabaseClusterName() {
        String longest = "t".repeat(47);
        assertThat(errors(longest, MlflowFixtures.bucketOnly())).isEmpty();

        assertThat(errors(longest + "t", MlflowFixtures.bucketOnly())).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("name");
            assertThat(e.message()).contains("'" + longest + "t-db'").contains("at most 50").contains("at most 47");
        });
    }

    @Test
    void anInvalidNameIsRefusedOnce() {
        assertThat(errors("Tracking", MlflowFixtures.bucketOnly())).extracting(FieldError::field)
                .containsExactly("name");
        assertThat(errors("t".repeat(60), MlflowFixtures.bucketOnly())).extracting(FieldError::field)
                .containsExactly("name");
    }

    @Test
    void aRefusedRequestIsA422WithEveryError() {
        Violations v = new Violations();
        KIND.checkCreate(v, "tracking", EngineFixtures.NAMESPACE, MlflowFixtures.spec(
                new MlflowSpec(null, "/x", 0, null, null)));

        assertThatThrownBy(v::throwIfAny).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(422);
            assertThat(e.errors()).extracting(FieldError::field)
                    .containsExactlyInAnyOrder("spec.storage", "spec.artifactsPrefix", "spec.workers");
        });
    }

    @Test
    void aPatchRechecksCapacityOnlyAndTheBucketAndPrefixAreFixed() {
        Violations v = new Violations();
        KIND.checkCapacity(v, new MlflowSpec(null, "not checked on a patch", 3, new ResourcesSpec("4Gi", "2"),
                new DatabaseSpec("5Gi")));
        assertThat(v.errors()).isEmpty();

        KIND.checkCapacity(v, new MlflowSpec(null, null, 3, null, null));
        assertThat(v.errors()).extracting(FieldError::field).containsExactlyInAnyOrder(
                "spec.resources.memory", "spec.resources.cpu", "spec.database.storageSize");
        assertThat(KIND.fixedFields()).containsExactlyInAnyOrder("storage", "artifactsPrefix");
    }

    private static MlflowSpec prefix(String prefix) {
        return new MlflowSpec(EngineFixtures.bucket(), prefix, null, null, null);
    }

    private static MlflowSpec workers(int workers) {
        return new MlflowSpec(EngineFixtures.bucket(), null, workers, null, null);
    }

    private static List<FieldError> errors(String name, MlflowSpec requested) {
        Violations v = new Violations();
        KIND.checkCreate(v, name, EngineFixtures.NAMESPACE, MlflowFixtures.spec(requested));
        return v.errors();
    }
}
