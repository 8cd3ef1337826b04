package io.lakehouse.access.oidc;

import jakarta.ws.rs.WebApplicationException;

/** Why a Keycloak call failed, in words fit for the API (no bodies, no secrets). */
final class KeycloakErrors {

    private KeycloakErrors() {}

    /** Keycloak answered and said no (4xx other than 404/409/429): retrying alone will not help. */
    static boolean refused(Throwable e) {
        int status = status(e);
        return status >= 400 && status < 500 && status != 404 && status != 409 && status != 429;
    }

    /**
     * Keycloak did not accept the admin client's credentials or token (401/403). The token the admin
     * client holds may be the stale part (roles are read from the token), so it is dropped.
     */
    static boolean credentialsRefused(Throwable e) {
        int status = status(e);
        return status == 401 || status == 403;
    }

    static String describe(Throwable e) {
        int status = status(e);
        if (status > 0) {
            return "Keycloak answered HTTP " + status + (refused(e) ? " (check the admin client's roles)" : "");
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String what = root.getClass().getSimpleName();
        return "waiting for Keycloak: " + what + (root.getMessage() == null ? "" : " (" + firstLine(root.getMessage()) + ")");
    }

    private static int status(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof WebApplicationException w && w.getResponse() != null) {
                return w.getResponse().getStatus();
            }
        }
        return -1;
    }

    private static String firstLine(String message) {
        String line = message.lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) : line;
    }
}
