package io.lakehouse.engines.domain;

import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.engines.kinds.mlflow.MlflowKind;
import io.lakehouse.engines.kinds.nifi.NifiKind;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind;
import io.lakehouse.engines.kinds.trino.TrinoKind;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.List;

/** The kinds this service offers. */
public final class EngineKinds {

    public static final InstanceKinds<EngineContext> ALL = new InstanceKinds<>(List.of(new TrinoKind(),
            new SparkConnectKind(), new MlflowKind(), new NifiKind()));

    private EngineKinds() {}
}
