package io.lakehouse.access.oidc;

/** Where an instance's OIDC client stands: waiting (Keycloak unreachable or not configured), done, refused. */
public enum OidcClientState {
    Pending,
    Ready,
    Failed
}
