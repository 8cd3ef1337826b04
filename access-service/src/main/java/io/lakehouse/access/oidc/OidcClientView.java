package io.lakehouse.access.oidc;

import java.time.OffsetDateTime;

/** The API's view of an instance's OIDC client: where it stands and why. Never the secret. */
public record OidcClientView(String namespace, String kind, String name, String clientId, String secretName,
        String issuer, String state, String reason, boolean deleting, OffsetDateTime updatedAt) {

    static OidcClientView of(OidcClientRecord r, String issuer) {
        return new OidcClientView(r.key().namespace(), r.key().kind(), r.key().name(), r.clientId(),
                OidcClientSpec.secretName(r.key()), issuer, r.state().name(), r.reason(), !r.wanted(), r.updatedAt());
    }
}
