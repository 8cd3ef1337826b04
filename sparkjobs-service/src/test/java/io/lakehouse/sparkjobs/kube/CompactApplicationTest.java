package io.lakehouse.sparkjobs.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lakehouse.common.testing.GoldenYaml;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The tracker's cache keeps {@link ApplicationStatus#compact} copies: the history must read the same from them as
 * from the whole application (a resync replays the cache), the informer must still follow them (uid,
 * resourceVersion), and their size must not grow with the job's templates.
 */
class CompactApplicationTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final String MANAGED_BY = "sparkjobs-service";

    @ParameterizedTest
    @ValueSource(strings = {"script-on-image", "s3-with-endpoint", "git-with-token", "ca-git-jar-scheduled"})
    void aCompactCopyReadsAsTheWholeApplicationAndStaysUnderOneKilobyteWhateverTheJob(String golden) {
        GenericKubernetesResource app = running(golden);

        GenericKubernetesResource compact = ApplicationStatus.compact(app);

        assertThat(ApplicationStatus.of(compact, MANAGED_BY)).isEqualTo(ApplicationStatus.of(app, MANAGED_BY));
        assertThat(compact.getMetadata().getUid()).isEqualTo("uid-1");
        assertThat(compact.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(compact.getMetadata().getAnnotations()).doesNotContainKey(JobLabels.FORM);
        int whole = JSON.asJson(app).length();
        int kept = JSON.asJson(compact).length();
        // Bounded by the status and the labels, not by the pod templates and the form (2.2 to 8.4 KB here).
        assertThat(kept).as("JSON bytes kept of %d", whole).isLessThan(1024).isLessThan(whole / 2);
    }

    /** The case's SparkApplication as the API server and the operator leave it while it runs, run by a schedule. */
    private static GenericKubernetesResource running(String golden) {
        JsonNode doc = GoldenYaml.read(GoldenYaml.DIR.resolve("sparkjobs").resolve(golden + ".yaml")).stream()
                .filter(d -> SparkResources.APPLICATION.equals(d.path("kind").asText())).findFirst().orElseThrow();
        GenericKubernetesResource app = JSON.unmarshal(doc.toString(), GenericKubernetesResource.class);
        app.getMetadata().setUid("uid-1");
        app.getMetadata().setResourceVersion("42");
        app.getMetadata().setCreationTimestamp("2026-12-03T01:00:00Z");
        app.getMetadata().setOwnerReferences(List.of(new OwnerReference(SparkResources.API_VERSION, false, true,
                SparkResources.SCHEDULED, "nightly", "uid-0")));
        app.setAdditionalProperty("status", Map.of(
                "applicationState", Map.of("state", "FAILED", "errorMessage", "driver exited with 1"),
                "lastSubmissionAttemptTime", "2026-12-03T01:00:05Z",
                "terminationTime", "2026-12-03T01:02:00Z",
                "driverInfo", Map.of("podName", golden + "-driver")));
        return app;
    }
}
