package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.common.testing.InstanceApi.instances;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.ReadCost;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read API (P1) of engines-service: a token already verified is not verified again (most of a read's cost). */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class EngineReadsTest {

    @Test
    void aCallerReadingAgainWithTheSameTokenIsNotVerifiedAgain() {
        String ns = Callers.freshNamespace();
        asAdmin().body("""
                {"name":"tracking","spec":{"storage":{"bucket":"artifacts","endpoint":"http://minio.storage.svc:9000",
                 "region":"us-east-1","accessKeyId":"AKIA-TEST","secretAccessKey":"s3cr3t"}}}""")
                .post(instances(ns, "mlflow")).then().statusCode(201);
        List<String> paths = List.of(instances(ns, "mlflow") + "/tracking", instances(ns, "mlflow") + "?limit=50");
        ReadCost.ByToken cost = ReadCost.byToken(400, paths);
        System.out.printf("engines reads, a new token each: %s; the same token: %s%n", cost.newTokens(),
                cost.sameToken());
        assertThat(cost.sameToken().bytesPerRead()).isLessThan(cost.newTokens().bytesPerRead() * 2 / 3);
    }
}
