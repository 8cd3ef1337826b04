package io.lakehouse.common.testing;

import static io.restassured.RestAssured.given;

import io.lakehouse.local.LocalTokens;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Calls as a user would make them: bearer tokens of the local token issuer (the services under test
 * trust its key, see each service's TestStack) for the platform's API audience, groups as full paths
 * ({@code "data-team"} is sent as {@code /data-team}), JSON bodies, a namespace of its own per test.
 */
public final class Callers {

    public static final String ISSUER = "https://lakehouse.local/issuer";
    public static final LocalTokens TOKENS = LocalTokens.ephemeral();
    public static final String ADMIN_GROUP = "/platform-admins";

    private Callers() {}

    public static String token(String user, String... groups) {
        return TOKENS.sign(ISSUER, user, List.of(groups), Duration.ofHours(1));
    }

    /** A valid token of the same issuer meant for another audience (e.g. an instance's own client). */
    public static String tokenFor(String audience, String user, String... groups) {
        return TOKENS.sign(ISSUER, audience, user, List.of(groups), Duration.ofHours(1));
    }

    public static RequestSpecification as(String user, String... groups) {
        return given().auth().oauth2(token(user, groups)).contentType("application/json");
    }

    /** A platform admin: every role in every namespace. */
    public static RequestSpecification asAdmin() {
        return as("root-admin", ADMIN_GROUP);
    }

    /** A namespace of its own for each test: no test sees another's objects. */
    public static String freshNamespace() {
        return "t-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
