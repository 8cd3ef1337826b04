package io.lakehouse.common.outbox;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports a Kafka outage, or outbox rows parked because Kafka can never take them, as "degraded"
 * while staying UP: the API keeps taking writes into the outbox, so the pod must stay in the Service.
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
        // Readiness answers anonymous callers: the cause (hosts, exception text) is in the service's log only.
        String error = relay.lastError() == null ? null : "publishing to Kafka fails: see the service's log";
        long parked = relay.parked();
        if (error == null && parked > 0) {
            error = parked + " outbox row(s) parked: Kafka refuses them (see outbox.parked_reason)";
        }
        return HealthCheckResponse.named("outbox")
                .up()
                .withData("state", error == null ? "publishing" : "degraded")
                .withData("backlog", relay.backlog())
                .withData("parked", parked)
                .withData("lastError", error == null ? "" : error)
                .build();
    }
}
