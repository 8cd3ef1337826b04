package io.lakehouse.notebooks.events;

import io.lakehouse.common.instances.GrantEvents;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/** Grants on our instances ({@link GrantEvents}), which the hubs' sign-in lists follow. */
@ApplicationScoped
public class GrantsConsumer {

    private final GrantEvents grants;

    GrantsConsumer(GrantEvents grants) {
        this.grants = grants;
    }

    @Incoming("instance-grants")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return grants.consume(message, HubInstance.KIND::equals);
    }
}
