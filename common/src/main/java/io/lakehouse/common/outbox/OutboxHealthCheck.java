package io.lakehouse.common.outbox;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports a Kafka outage as "degraded" while staying UP: the API keeps taking writes into the
 * outbox, so the pod must stay in the Service.
 */
@Readiness
@ApplicationScoped
public class OutboxHealthCheck implements HealthCheck {

    private final OutboxRelay relay;

    OutboxHealthCheck(OutboxRelay relay) {
        this.relay = relay;
    }

    @Override
    public HealthCheckResponse call() {
        String error = relay.lastError();
        return HealthCheckResponse.named("outbox")
                .up()
                .withData("state", error == null ? "publishing" : "degraded")
                .withData("backlog", relay.backlog())
                .withData("lastError", error == null ? "" : error)
                .build();
    }
}
