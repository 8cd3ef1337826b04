package io.lakehouse.common.kube;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * DOWN while an informer of the leader is stopped: its objects are no longer watched, so drift on them
 * would go unnoticed. {@link InformerWatchdog} replaces a stopped informer within a second when the API
 * server answers; if it cannot, a restart hands the lead to a replica that can. UP on a follower (no
 * informers) and in a service without a cache.
 */
@Liveness
@ApplicationScoped
public class InformerHealthCheck implements HealthCheck {

    private final Instance<InformerCache> cache;

    InformerHealthCheck(Instance<InformerCache> cache) {
        this.cache = cache;
    }

    @Override
    public HealthCheckResponse call() {
        List<String> stopped = cache.isResolvable() ? cache.get().stoppedKinds() : List.of();
        return HealthCheckResponse.named("informers")
                .status(stopped.isEmpty())
                .withData("stopped", String.join(",", stopped))
                .build();
    }
}
