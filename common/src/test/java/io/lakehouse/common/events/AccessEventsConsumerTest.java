package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The service's one lakehouse.access consumer: each event to the handler of its type, and only there, then to the observers. */
class AccessEventsConsumerTest {

    private final IncomingEvents incoming = new IncomingEvents(new FastRetrySettings(),
            OpenTelemetry.noop().getTracer("test"));
    private final List<String> outcome = new ArrayList<>();
    private final Recording members = new Recording(Set.of(EventType.MEMBER_SET, EventType.MEMBER_REMOVED));
    private final Recording grants = new Recording(Set.of(EventType.GRANT_ADDED, EventType.GRANT_REMOVED));
    private final List<String> observed = new ArrayList<>();
    private final AccessEventObserver observer = event -> {
        observed.add(event.type().shortName() + " after " + (members.seen.size() + grants.seen.size()) + " handler steps");
        return Uni.createFrom().voidItem();
    };
    private final AccessEventsConsumer consumer =
            new AccessEventsConsumer(incoming, List.of(members, grants), List.of(observer));

    @Test
    void eachEventIsCheckedAndAppliedByTheHandlerOfItsTypeOnly() throws Exception {
        consume(EventType.GRANT_ADDED, "{\"kind\":\"trino\"}");
        consume(EventType.MEMBER_SET, "{\"namespace\":\"ns\"}");

        assertThat(grants.seen).containsExactly("check access.grant-added", "apply access.grant-added");
        assertThat(members.seen).containsExactly("check access.member-set", "apply access.member-set");
        assertThat(outcome).containsExactly("ack", "ack");
        assertThat(observed).containsExactly("access.grant-added after 2 handler steps",
                "access.member-set after 4 handler steps");
    }

    @Test
    void aTypeNoHandlerTakesIsAcknowledgedAndIgnored() throws Exception {
        consume(EventType.USER_GROUPS_SEEN, "{\"groups\":\"not even an array\"}");

        assertThat(members.seen).isEmpty();
        assertThat(grants.seen).isEmpty();
        assertThat(outcome).containsExactly("ack");
        assertThat(observed).containsExactly("access.user-groups-seen after 0 handler steps");
    }

    @Test
    void anEventItsHandlerFindsMalformedIsDeadLetteredWithoutBeingApplied() throws Exception {
        consume(EventType.GRANT_REMOVED, "{}");

        assertThat(grants.seen).containsExactly("check access.grant-removed");
        assertThat(outcome).containsExactly("nack: grant event without kind");
        assertThat(observed).isEmpty();
    }

    @Test
    void twoHandlersOfOneTypeOrAHandlerOfAnotherTopicStopTheStart() {
        Recording alsoGrants = new Recording(Set.of(EventType.GRANT_REMOVED));
        assertThatThrownBy(() -> new AccessEventsConsumer(incoming, List.of(grants, alsoGrants), List.of()))
                .hasMessage("two handlers of lakehouse.access.grant-removed.v1");
        Recording instances = new Recording(Set.of(EventType.INSTANCE_READY));
        assertThatThrownBy(() -> new AccessEventsConsumer(incoming, List.of(instances), List.of()))
                .hasMessage("lakehouse.instance.ready.v1 does not travel on lakehouse.access");
    }

    private void consume(EventType type, String data) throws Exception {
        LakehouseEvent event = LakehouseEvent.of("test", type, "ns", CloudEventHeaders.parseData(data));
        consumer.consume(RecordedMessages.of(event, outcome)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Records what it is asked; finds an event without a kind malformed. */
    private static final class Recording implements AccessEventHandler {
        private final Set<EventType> types;
        private final List<String> seen = new ArrayList<>();

        Recording(Set<EventType> types) {
            this.types = types;
        }

        @Override
        public Set<EventType> types() {
            return types;
        }

        @Override
        public void check(LakehouseEvent event) {
            seen.add("check " + event.type().shortName());
            if (event.type().shortName().startsWith("access.grant") && !event.data().has("kind")) {
                throw new MalformedEventException("grant event without kind");
            }
        }

        @Override
        public Uni<Void> apply(LakehouseEvent event) {
            seen.add("apply " + event.type().shortName());
            return Uni.createFrom().voidItem();
        }
    }
}
