package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static io.restassured.RestAssured.given;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/** Only tokens meant for the platform's APIs (aud lakehouse-api); platform admin is the group /platform-admins. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class TokenAudienceTest {

    @Test
    void aTokenForAnotherAudienceIs401AndOnlyTheTopLevelAdminGroupIsAdmin() {
        String ns = Callers.freshNamespace();
        given().auth().oauth2(Callers.tokenFor("ns1.sql.trino", "alice", Callers.ADMIN_GROUP))
                .get(instances(ns, "trino")).then().statusCode(401);
        asAdmin().get(instances(ns, "trino")).then().statusCode(200);
        as("mallory", "/other/platform-admins").get(instances(ns, "trino")).then().statusCode(403);
    }
}
