package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.instance;
import static io.lakehouse.access.it.Api.members;
import static io.lakehouse.common.testing.Callers.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint × viewer / operator / admin / no role. Roles are set through the API itself and
 * reach the service's authorizer through lakehouse.access.
 */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class RolesMatrixTest {

    private static final List<String> ROLES = List.of("viewer", "operator", "admin", "none");

    /** An endpoint called by a user; {@code who} makes the targets distinct per caller. */
    private record Call(String name, BiFunction<RequestSpecification, String, Integer> send) {}

    @Test
    void everyEndpointAnswersEachRoleAsSpecified() {
        String ns = Callers.freshNamespace();
        String hub = instance(ns, "jupyterhub", "hub");
        try (EventWriter writer = new EventWriter()) {
            Api.requestInstance(writer, ns, "jupyterhub", "hub", "dora");
        }
        Map<String, String> users = new LinkedHashMap<>();
        for (String role : ROLES) {
            users.put(role, "u-" + role);
            if (!"none".equals(role)) {
                Api.grantRole(ns, "u-" + role, role);
            }
        }
        List<Call> calls = List.of(
                new Call("GET members", (r, who) -> r.get(members(ns)).statusCode()),
                new Call("GET member", (r, who) -> r.get(members(ns) + "/user:u-viewer").statusCode()),
                new Call("PUT member", (r, who) -> r.body("{\"role\":\"viewer\"}")
                        .put(members(ns) + "/user:target-" + who).statusCode()),
                new Call("DELETE member", (r, who) -> r.delete(members(ns) + "/user:target-" + who).statusCode()),
                new Call("GET grants", (r, who) -> r.get(hub + "/grants").statusCode()),
                new Call("POST grants", (r, who) -> r.body("{\"subjects\":[\"user:g-" + who + "\"]}")
                        .post(hub + "/grants").statusCode()),
                new Call("DELETE grant", (r, who) -> r.delete(hub + "/grants/user:g-" + who).statusCode()),
                new Call("GET access", (r, who) -> r.get(hub + "/access").statusCode()),
                new Call("GET audit", (r, who) -> r.queryParam("namespace", ns).get("/api/v1/audit").statusCode()),
                new Call("GET audit (all)", (r, who) -> r.get("/api/v1/audit").statusCode()),
                // Forward-auth depends on grants, not roles: nobody here holds one on the hub.
                new Call("GET authz", (r, who) -> r.queryParam("host", Api.host(ns, "hub")).get("/api/v1/authz")
                        .statusCode()));

        Map<String, List<Integer>> expected = new LinkedHashMap<>();
        //                                       viewer operator admin none
        expected.put("GET members", List.of(200, 200, 200, 403));
        expected.put("GET member", List.of(200, 200, 200, 403));
        expected.put("PUT member", List.of(403, 403, 200, 403));
        expected.put("DELETE member", List.of(403, 403, 204, 403));
        expected.put("GET grants", List.of(200, 200, 200, 403));
        expected.put("POST grants", List.of(403, 403, 200, 403));
        expected.put("DELETE grant", List.of(403, 403, 204, 403));
        expected.put("GET access", List.of(200, 200, 200, 403));
        expected.put("GET audit", List.of(403, 403, 200, 403));
        expected.put("GET audit (all)", List.of(403, 403, 403, 403));
        expected.put("GET authz", List.of(403, 403, 403, 403));

        Map<String, List<Integer>> actual = new LinkedHashMap<>();
        for (Call call : calls) {
            actual.put(call.name(), ROLES.stream().map(role -> call.send().apply(as(users.get(role)), role)).toList());
        }
        assertThat(actual).isEqualTo(expected);
    }
}
