package io.lakehouse.access.it;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.resource.ClientResource;
import org.keycloak.admin.client.resource.RealmResource;
import org.keycloak.admin.client.resource.UserResource;
import org.keycloak.representations.idm.ClientRepresentation;
import org.keycloak.representations.idm.RoleRepresentation;
import org.keycloak.representations.idm.UserRepresentation;

/**
 * access-service with Keycloak, but signed in with an admin client of its own ({@link #CLIENT_ID}, a
 * service account with realm-management manage/view/query-clients like lakehouse-access), so that a
 * test can make Keycloak refuse it (roles taken away, account disabled) without touching the
 * lakehouse-access client the other tests use. Created, or reset to working order, through the
 * master realm's admin by {@link #ensure}.
 */
public class OwnAdminClientTestStack extends KeycloakTestStack {

    public static final String CLIENT_ID = "lakehouse-access-refusal-test";
    public static final String CLIENT_SECRET = "refusal-test-local-only";
    private static final List<String> ROLES = List.of("manage-clients", "view-clients", "query-clients");

    /**
     * Creates the admin client, or puts it back in working order (enabled, with its roles) after an
     * interrupted run. Called by the test (the Keycloak admin client library only runs inside the
     * Quarkus application, not in a test resource): the service signs in only when it first has work.
     */
    public static void ensure(Keycloak master) {
        RealmResource realm = master.realm(KeycloakTestServer.REALM);
        if (realm.clients().findByClientId(CLIENT_ID).isEmpty()) {
            ClientRepresentation c = new ClientRepresentation();
            c.setClientId(CLIENT_ID);
            c.setSecret(CLIENT_SECRET);
            c.setPublicClient(false);
            c.setServiceAccountsEnabled(true);
            c.setStandardFlowEnabled(false);
            c.setDirectAccessGrantsEnabled(false);
            realm.clients().create(c).close();
        }
        enable(master, true);
        grantRoles(master, true);
    }

    @Override
    protected Map<String, String> serviceProperties() {
        Map<String, String> props = new HashMap<>(super.serviceProperties());
        props.put("lakehouse.keycloak.client-id", CLIENT_ID);
        props.put("lakehouse.keycloak.client-secret", CLIENT_SECRET);
        return props;
    }

    /** Gives the service account its realm-management roles, or takes them away. */
    public static void grantRoles(Keycloak master, boolean granted) {
        RealmResource realm = master.realm(KeycloakTestServer.REALM);
        String rm = realm.clients().findByClientId("realm-management").get(0).getId();
        ClientResource management = realm.clients().get(rm);
        List<RoleRepresentation> roles = ROLES.stream().map(r -> management.roles().get(r).toRepresentation()).toList();
        var mapping = serviceAccount(master).roles().clientLevel(rm);
        if (granted) {
            mapping.add(roles);
        } else {
            mapping.remove(roles);
        }
    }

    /** Enables or disables the service account: disabled, even its current token is refused (401). */
    public static void enable(Keycloak master, boolean enabled) {
        UserResource user = serviceAccount(master);
        UserRepresentation u = user.toRepresentation();
        u.setEnabled(enabled);
        user.update(u);
    }

    private static UserResource serviceAccount(Keycloak master) {
        RealmResource realm = master.realm(KeycloakTestServer.REALM);
        String id = realm.clients().findByClientId(CLIENT_ID).get(0).getId();
        return realm.users().get(realm.clients().get(id).getServiceAccountUser().getId());
    }
}
