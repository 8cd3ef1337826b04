package io.lakehouse.engines.kinds.sparkconnect;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.PropertiesFiles;
import java.util.Map;

/** The {@code <name>-conf} ConfigMap: the server's spark-defaults.conf without any secret value. */
final class SparkConnectConfig {

    static final String FILE = "spark-defaults.conf";

    private SparkConnectConfig() {}

    static ConfigMap of(Instance inst, EngineContext ctx, OwnerReference owner) {
        return new ConfigMapBuilder()
                .withMetadata(InstanceObjects.meta(SparkConnectNames.conf(inst.name()), SparkConnectNames.APP, inst, ctx,
                        SparkConnectNames.SERVER, owner))
                .withData(Map.of(FILE, PropertiesFiles.render(SparkProperties.server(SparkProperties.spec(inst), ctx))))
                .build();
    }
}
