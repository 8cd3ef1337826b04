package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint against every role: viewers read, operators launch, relaunch, cancel, delete and run a
 * schedule now, admins manage schedules and the spark account. A role below the one needed gets 403;
 * the one needed (or more) never does.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class RolesMatrixTest {

    private record Call(String method, String path, int needed) {}

    private static final List<String> USERS = List.of("stranger", "vera", "otto", "ada");

    @Test
    void everyEndpointChecksTheRoleItNeeds() {
        String ns = Callers.freshNamespace();
        try (EventWriter writer = new EventWriter()) {
            Api.grantRole(writer, ns, "vera", "viewer");
            Api.grantRole(writer, ns, "otto", "operator");
            Api.grantRole(writer, ns, "ada", "admin");
        }
        String jobs = Api.jobs(ns);
        String schedules = "/api/v1/namespaces/" + ns + "/spark-schedules";
        List<Call> calls = List.of(
                new Call("GET", jobs, 1),
                new Call("POST", jobs, 2),
                new Call("GET", jobs + "/x", 1),
                new Call("GET", jobs + "/x/logs", 1),
                new Call("POST", jobs + "/x/relaunch", 2),
                new Call("POST", jobs + "/x/cancel", 2),
                new Call("DELETE", jobs + "/x", 2),
                new Call("GET", schedules, 1),
                new Call("POST", schedules, 3),
                new Call("GET", schedules + "/x", 1),
                new Call("PATCH", schedules + "/x", 3),
                new Call("DELETE", schedules + "/x", 3),
                new Call("POST", schedules + "/x/run", 2),
                new Call("POST", schedules + "/x/suspend", 3),
                new Call("POST", schedules + "/x/resume", 3),
                new Call("POST", "/api/v1/namespaces/" + ns + "/spark-rbac", 3));
        List<String> wrong = new ArrayList<>();
        for (Call call : calls) {
            for (int level = 0; level < USERS.size(); level++) {
                RequestSpecification request = as(USERS.get(level));
                if (!call.method().equals("GET") && !call.method().equals("DELETE")) {
                    request = request.body("{}");
                }
                int status = request.request(call.method(), call.path()).statusCode();
                boolean refused = status == 403;
                if (refused != (level < call.needed()) || status == 401 || status >= 500) {
                    wrong.add(call.method() + " " + call.path() + " as " + USERS.get(level) + ": " + status);
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(as("nobody").get(jobs).statusCode()).isEqualTo(403);
        assertThat(io.restassured.RestAssured.given().get(jobs).statusCode()).isEqualTo(401);
    }
}
