package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import java.time.OffsetDateTime;

/** A row of {@code oidc_clients}: intent and state, never the secret. */
public record OidcClientRecord(InstanceKey key, String clientId, boolean wanted, OidcClientState state,
        String reason, OffsetDateTime updatedAt) {}
