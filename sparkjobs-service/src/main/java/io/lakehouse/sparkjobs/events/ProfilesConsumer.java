package io.lakehouse.sparkjobs.events;

import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.sparkjobs.store.ProfileStore;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Projects the job profiles from {@code lakehouse.instances}: every event of a spark-connect instance
 * that carries {@code spec.profile} stores it (newer wins), {@code instance.deleted} removes it.
 */
@ApplicationScoped
public class ProfilesConsumer {

    static final String KIND = "spark-connect";
    private static final String CONSUMER = "profiles";

    private final IncomingEvents incoming;
    private final Pool pool;
    private final ProfileStore store;

    ProfilesConsumer(IncomingEvents incoming, @ReactiveDataSource(IncomingEvents.POOL) Pool pool, ProfileStore store) {
        this.incoming = incoming;
        this.pool = pool;
        this.store = store;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handleInstances(message, KIND::equals, ProfilesConsumer::check, this::apply);
    }

    private Uni<Void> apply(LakehouseEvent event) {
        String namespace = event.data().path("namespace").asText();
        String name = event.data().path("name").asText();
        boolean deleted = event.type() == EventType.INSTANCE_DELETED;
        var profile = event.data().path("spec").path("profile");
        if (!deleted && !profile.isObject()) {
            return Uni.createFrom().voidItem();
        }
        return pool.withTransaction(tx -> Inbox.firstDelivery(tx, event.id(), CONSUMER).chain(first -> {
            if (!first) {
                return Uni.createFrom().voidItem();
            }
            return deleted ? store.remove(tx, namespace, name)
                    : store.put(tx, namespace, name, profile, event.time().atOffset(ZoneOffset.UTC));
        }));
    }

    static void check(LakehouseEvent event) {
        if (event.data().path("namespace").asText("").isEmpty() || event.data().path("name").asText("").isEmpty()
                || event.data().path("kind").asText("").isEmpty()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
    }
}
