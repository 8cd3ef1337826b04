package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * A row of {@code oidc_clients}: intent and state, never the secret. {@code instanceUid} is the mark the
 * client carries in Keycloak; {@code retiredUid}, if any, the mark of a previous instance of the same name
 * whose client may still exist.
 */
public record OidcClientRecord(InstanceKey key, String clientId, boolean wanted, OidcClientState state,
        String reason, OffsetDateTime updatedAt, String instanceUid, String retiredUid) {

    /** True when a client carrying {@code mark} was made by access-service for this instance (or its predecessor). */
    public boolean owns(String mark) {
        return mark != null && (mark.equals(instanceUid) || Objects.equals(mark, retiredUid));
    }
}
