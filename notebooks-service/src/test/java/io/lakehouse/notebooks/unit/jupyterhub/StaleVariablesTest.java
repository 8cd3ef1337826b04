package io.lakehouse.notebooks.unit.jupyterhub;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables.Binding;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables.Result;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StaleVariablesTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Instant T1 = T0.plusSeconds(600);
    private static final LakehouseRefs REFS = new LakehouseRefs("cat", "trino", null, null);

    @Test
    void everythingBoundAndNoServerOlderThanItsInstance() {
        Result r = StaleVariables.of(REFS, Map.of("catalog", new Binding(true, T0), "trino", new Binding(true, T0)),
                List.of(T1));
        assertThat(r.current()).isTrue();
        assertThat(r.staleVariables()).isEmpty();
    }

    @Test
    void aDeletedInstanceNamesTheVariablesNewServersGoWithout() {
        Result r = StaleVariables.of(REFS, Map.of("catalog", new Binding(false, T1), "trino", new Binding(true, T0)),
                List.of());
        assertThat(r).isEqualTo(new Result(false, "InstanceMissing",
                "iceberg-catalog 'cat' is gone: new servers start without POLARIS_URI, POLARIS_WAREHOUSE,"
                        + " POLARIS_CREDENTIAL, POLARIS_SCOPE",
                List.of("POLARIS_URI", "POLARIS_WAREHOUSE", "POLARIS_CREDENTIAL", "POLARIS_SCOPE")));
    }

    @Test
    void aRecreatedInstanceMakesOlderServersStaleUntilTheyRestart() {
        Map<String, Binding> recreated = Map.of("catalog", new Binding(true, T0), "trino", new Binding(true, T1));
        Result stale = StaleVariables.of(REFS, recreated, List.of(T0.plusSeconds(60), T1.plusSeconds(60)));
        assertThat(stale).isEqualTo(new Result(false, "ServersStale",
                "trino 'trino' changed after 1 running server(s) started, which keep stale or no TRINO_HOST"
                        + " (restart them)",
                List.of("TRINO_HOST")));
        assertThat(StaleVariables.of(REFS, recreated, List.of(T1.plusSeconds(60))).current()).isTrue();
    }
}
