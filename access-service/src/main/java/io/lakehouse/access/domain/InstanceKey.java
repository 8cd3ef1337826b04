package io.lakehouse.access.domain;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.validation.Names;

/** One instance of any service, as the lifecycle events name it. */
public record InstanceKey(String namespace, String kind, String name) {

    /** {@code <name>-<namespace>.<domain>}: where the gateway serves it. */
    public String host(String domain) {
        return Names.hostLabel(name, namespace) + "." + domain;
    }

    /** The event subject {@code <namespace>/<kind>/<name>}. */
    public String subject() {
        return LakehouseEvent.instanceSubject(namespace, kind, name);
    }
}
