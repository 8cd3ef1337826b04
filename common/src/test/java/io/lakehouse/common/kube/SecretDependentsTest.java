package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which instances a change of a Secret of others queues: those whose latest pass read it, no others. */
class SecretDependentsTest {

    @Test
    void aSecretQueuesTheInstancesWhoseLatestPassReadItInItsNamespace() {
        SecretDependents dependents = new SecretDependents();
        dependents.record("ns", "sales", List.of("team-bucket", "sales-db-app"));
        dependents.record("ns", "ops", List.of("team-bucket"));
        dependents.record("other", "sales", List.of("team-bucket"));

        assertThat(dependents.of("ns", "team-bucket")).containsExactlyInAnyOrder("ns/sales", "ns/ops");
        assertThat(dependents.of("ns", "sales-db-app")).containsExactly("ns/sales");
        assertThat(dependents.of("ns", "unknown")).isEmpty();

        // The next pass reads another bucket: the old one no longer queues it.
        dependents.record("ns", "sales", List.of("new-bucket", "sales-db-app"));
        assertThat(dependents.of("ns", "team-bucket")).containsExactly("ns/ops");
        assertThat(dependents.of("ns", "new-bucket")).containsExactly("ns/sales");

        dependents.forget("ns", "sales");
        assertThat(dependents.of("ns", "new-bucket")).isEmpty();
        assertThat(dependents.of("ns", "sales-db-app")).isEmpty();
        assertThat(dependents.of("other", "team-bucket")).containsExactly("other/sales");
    }
}
