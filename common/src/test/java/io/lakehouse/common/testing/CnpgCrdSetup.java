package io.lakehouse.common.testing;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Registers the CloudNativePG CRD in the mock API server before the service starts: the mock only
 * serves a custom resource once its definition exists (a real cluster needs the operator installed).
 */
public class CnpgCrdSetup implements Consumer<KubernetesServer> {

    @Override
    public void accept(KubernetesServer server) {
        Path crd = Path.of(System.getProperty("lakehouse.crds.dir", "../deploy/crds"), "postgresql.cnpg.io_clusters.yaml");
        try (InputStream in = Files.newInputStream(crd)) {
            CustomResourceDefinition definition = server.getClient().getKubernetesSerialization()
                    .unmarshal(in, CustomResourceDefinition.class);
            server.getClient().apiextensions().v1().customResourceDefinitions().resource(definition).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
