package io.lakehouse.access.it;

import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.common.testing.Callers.freshNamespace;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;

/** Calls as a user would make them: bearer tokens, JSON bodies. */
public final class Api {

    public static final String DOMAIN = "lakehouse.localtest.me";
    /** Roles set through the API come back through Kafka into the service's own projection. */
    public static final Duration PROPAGATION = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Api() {}

    public static String members(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/members";
    }

    public static String instance(String namespace, String kind, String name) {
        return "/api/v1/namespaces/" + namespace + "/instances/" + kind + "/" + name;
    }

    public static String host(String namespace, String name) {
        return name + "-" + namespace + "." + DOMAIN;
    }

    /** Gives a user with no role yet a role, as the platform admin, and waits until the service's own authorizer applies it. */
    public static void grantRole(String namespace, String user, String role) {
        asAdmin().body("{\"role\":\"" + role + "\"}").put(members(namespace) + "/user:" + user).then().statusCode(200);
        await().atMost(PROPAGATION).until(() -> as(user).get(members(namespace)).statusCode() == 200);
    }

    /**
     * Waits until the service's lakehouse.access consumer has read the topic's history (a fresh
     * consumer group starts from the earliest offset), so that timings measure steady state.
     */
    public static void awaitConsumersCaughtUp() {
        String ns = freshNamespace();
        asAdmin().body("{\"role\":\"viewer\"}").put(members(ns) + "/user:warm-up").then().statusCode(200);
        await().atMost(Duration.ofSeconds(60)).until(() -> as("warm-up").get(members(ns)).statusCode() == 200);
    }

    /** An instance event as catalog-, engines- or notebooks-service publishes it (one uid per instance name). */
    public static LakehouseEvent instanceEvent(EventType type, String namespace, String kind, String name,
            String createdBy) {
        return instanceEvent(type, namespace, kind, name, createdBy, uid(namespace, kind, name));
    }

    public static LakehouseEvent instanceEvent(EventType type, String namespace, String kind, String name,
            String createdBy, String uid) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", kind).put("name", name)
                .put("uid", uid).put("phase", "Pending").put("createdBy", createdBy);
        return LakehouseEvent.of("/lakehouse/engines-service", type,
                LakehouseEvent.instanceSubject(namespace, kind, name), data);
    }

    /** The uid the default instance events carry for that instance. */
    public static String uid(String namespace, String kind, String name) {
        return UUID.nameUUIDFromBytes((namespace + "/" + kind + "/" + name).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * For a service whose instances channel starts at the latest offset: sends instance.requested
     * until one is seen (its partitions are then assigned), then deletes that warm-up instance and waits
     * until the deletion is applied, so that its statement and events do not fall into the caller's test
     * (DeletedInstanceOneStatementTest once counted it as a third deletion).
     */
    public static void awaitInstancesConsumer() throws InterruptedException {
        awaitInstancesConsumer(Callers::asAdmin);
    }

    /** The same, asking as {@code admin} (e.g. a real Keycloak token of a platform admin). */
    public static void awaitInstancesConsumer(Supplier<RequestSpecification> admin) throws InterruptedException {
        String warm = freshNamespace();
        try (EventWriter writer = new EventWriter()) {
            long deadline = System.nanoTime() + PROPAGATION.multipliedBy(2).toNanos();
            while (admin.get().get(instance(warm, "trino", "warm-up") + "/grants").statusCode() != 200) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("access-service never saw instance.requested");
                }
                writer.send(instanceEvent(EventType.INSTANCE_REQUESTED, warm, "trino", "warm-up", "dora"));
                Thread.sleep(1000);
            }
            writer.send(instanceEvent(EventType.INSTANCE_DELETED, warm, "trino", "warm-up", "dora"));
        }
        await().atMost(PROPAGATION).until(() -> admin.get().get(instance(warm, "trino", "warm-up") + "/grants")
                .statusCode() == 404);
    }

    /**
     * Publishes instance.requested and waits until access-service knows the instance, forward-auth
     * included (its index follows the commit by a notification: 403 instead of 404 for a stranger).
     */
    public static void requestInstance(EventWriter writer, String namespace, String kind, String name,
            String createdBy) {
        writer.send(instanceEvent(EventType.INSTANCE_REQUESTED, namespace, kind, name, createdBy));
        await().atMost(PROPAGATION).until(
                () -> asAdmin().get(instance(namespace, kind, name) + "/grants").statusCode() == 200);
        await().atMost(PROPAGATION).until(() -> as("nobody-" + namespace).queryParam("host", host(namespace, name))
                .get("/api/v1/authz").statusCode() != 404);
    }
}
