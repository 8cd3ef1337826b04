package io.lakehouse.sparkjobs.it;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Registers the Spark Operator's CRDs (v2.5.2) in the mock API server before the service starts: the
 * mock only serves a custom resource once its definition exists.
 */
public class SparkCrdSetup implements Consumer<KubernetesServer> {

    static final List<String> FILES = List.of("sparkoperator.k8s.io_sparkapplications.yaml",
            "sparkoperator.k8s.io_scheduledsparkapplications.yaml");

    @Override
    public void accept(KubernetesServer server) {
        for (String file : FILES) {
            Path crd = Path.of(System.getProperty("lakehouse.crds.dir", "../deploy/crds"), file);
            try (InputStream in = Files.newInputStream(crd)) {
                CustomResourceDefinition definition = server.getClient().getKubernetesSerialization()
                        .unmarshal(in, CustomResourceDefinition.class);
                server.getClient().apiextensions().v1().customResourceDefinitions().resource(definition).create();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
