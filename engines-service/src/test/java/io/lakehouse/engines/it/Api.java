package io.lakehouse.engines.it;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.EventType;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.InstanceApi;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;

/** Calls as a user would make them, and the events the other services would publish ({@link InstanceApi}). */
public final class Api extends InstanceApi {

    private Api() {}

    /**
     * A fresh namespace with its bucket Secret, a Ready catalog {@code cat} and a trino {@code sql} on it, created once
     * the catalog's event has reached the service; returns the namespace.
     */
    public static String namespaceWithTrino(KubernetesClient kube) {
        String ns = Callers.freshNamespace();
        bucketSecret(kube, ns, "warehouse-bucket");
        catalogReady(ns, "cat");
        await().atMost(Duration.ofSeconds(30)).until(() -> Callers.asAdmin()
                .body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .statusCode() == 201);
        return ns;
    }

    /** What access-service publishes when it sees {@code user}'s token of {@code seenAt} carry {@code groups}. */
    public static LakehouseEvent groupsSeen(String user, Instant seenAt, String... groups) {
        ObjectNode data = new ObjectMapper().createObjectNode().put("user", user);
        Stream.of(groups).forEach(data.putArray("groups")::add);
        return new LakehouseEvent(UUID.randomUUID(), "/lakehouse/access-service", EventType.USER_GROUPS_SEEN,
                "user:" + user, seenAt, data);
    }
}
