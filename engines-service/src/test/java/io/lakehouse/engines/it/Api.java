package io.lakehouse.engines.it;

import io.lakehouse.common.testing.InstanceApi;

/** Calls as a user would make them, and the events the other services would publish ({@link InstanceApi}). */
public final class Api extends InstanceApi {

    private Api() {}
}
