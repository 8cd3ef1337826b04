package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.catalog.reconcile.CatalogSecrets;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.Labels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What must hold for every object of an instance, in both storage variants. */
class CatalogObjectsTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("credentials-secret", Fixtures.withCredentialsSecret(), Fixtures.context()),
                Arguments.of("inline-keys", Fixtures.withInlineKeys(), Fixtures.productionContext()));
    }

    private static List<HasMetadata> objects(Instance inst, CatalogContext ctx) {
        return Fixtures.objects(inst, ctx);
    }

    private static <T> List<T> ofType(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static List<PodTemplateSpec> podTemplates(List<HasMetadata> objects) {
        List<PodTemplateSpec> templates = new ArrayList<>();
        ofType(objects, Deployment.class).forEach(d -> templates.add(d.getSpec().getTemplate()));
        ofType(objects, Job.class).forEach(j -> templates.add(j.getSpec().getTemplate()));
        return templates;
    }

    private static Container polaris(List<HasMetadata> objects) {
        return ofType(objects, Deployment.class).get(0).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static Map<String, EnvVar> env(Container c) {
        return c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
    }

    private static String label(HasMetadata o) {
        return o.getKind() + "/" + o.getMetadata().getName();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void onlyTheRootAndTheDatabaseHaveNoOwnerAndEveryOtherObjectIsControlledByTheRoot(String name,
            Instance inst, CatalogContext ctx) {
        List<HasMetadata> objects = objects(inst, ctx);
        HasMetadata root = objects.get(0);
        assertThat(root.getMetadata().getName()).isEqualTo(CatalogNames.root(Fixtures.NAME));
        assertThat(root.getMetadata().getOwnerReferences()).isNullOrEmpty();
        // Garbage collection after a deleted root must not take the catalog's metadata with it.
        HasMetadata database = objects.stream().filter(o -> o.getKind().equals("Cluster")).findFirst().orElseThrow();
        assertThat(database.getMetadata().getOwnerReferences()).isNullOrEmpty();
        for (HasMetadata o : objects.subList(1, objects.size())) {
            if (o == database) {
                continue;
            }
            assertThat(o.getMetadata().getOwnerReferences()).as(label(o)).singleElement().satisfies(ref -> {
                assertThat(ref.getKind()).isEqualTo(root.getKind());
                assertThat(ref.getApiVersion()).isEqualTo(root.getApiVersion());
                assertThat(ref.getName()).isEqualTo(root.getMetadata().getName());
                assertThat(ref.getUid()).isEqualTo(Fixtures.ROOT_UID);
                assertThat(ref.getController()).isTrue();
                assertThat(ref.getBlockOwnerDeletion()).isTrue();
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyObjectIsInTheInstanceNamespaceWithTheRecommendedLabels(String name, Instance inst,
            CatalogContext ctx) {
        List<HasMetadata> objects = objects(inst, ctx);
        for (HasMetadata o : objects) {
            assertThat(o.getMetadata().getNamespace()).as(label(o)).isEqualTo(Fixtures.NAMESPACE);
            assertThat(o.getMetadata().getLabels()).as(label(o))
                    .containsEntry(Labels.NAME, "polaris")
                    .containsEntry(Labels.INSTANCE, Fixtures.NAME)
                    .containsEntry(Labels.MANAGED_BY, "catalog-service")
                    .containsEntry(Labels.PART_OF, "lakehouse")
                    .containsEntry(Labels.INSTANCE_KIND, "iceberg-catalog")
                    .containsKey(Labels.COMPONENT);
        }
        for (PodTemplateSpec t : podTemplates(objects)) {
            assertThat(t.getMetadata().getLabels()).containsKeys(Labels.NAME, Labels.INSTANCE, Labels.COMPONENT,
                    Labels.MANAGED_BY, Labels.PART_OF);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyContainerHasCpuAndMemoryRequestsAndLimits(String name, Instance inst, CatalogContext ctx) {
        for (PodTemplateSpec t : podTemplates(objects(inst, ctx))) {
            List<Container> containers = new ArrayList<>(t.getSpec().getContainers());
            if (t.getSpec().getInitContainers() != null) {
                containers.addAll(t.getSpec().getInitContainers());
            }
            for (Container c : containers) {
                assertThat(c.getResources().getRequests()).as(c.getName()).containsKeys("cpu", "memory");
                assertThat(c.getResources().getLimits()).as(c.getName()).containsKeys("cpu", "memory");
            }
        }
    }

    /** The Pod Security "restricted" profile, for the fields a pod of ours sets. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyPodMeetsTheRestrictedPodSecurityProfile(String name, Instance inst, CatalogContext ctx) {
        for (PodTemplateSpec t : podTemplates(objects(inst, ctx))) {
            PodSpec pod = t.getSpec();
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getAutomountServiceAccountToken()).isFalse();
            pod.getVolumes().forEach(v -> assertThat(v.getHostPath()).as(v.getName()).isNull());
            for (Container c : pod.getContainers()) {
                assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
                assertThat(c.getSecurityContext().getCapabilities().getDrop()).as(c.getName()).containsExactly("ALL");
                assertThat(c.getSecurityContext().getCapabilities().getAdd()).as(c.getName()).isNullOrEmpty();
                assertThat(c.getSecurityContext().getPrivileged()).as(c.getName()).isNotEqualTo(Boolean.TRUE);
                assertThat((Object) c.getSecurityContext().getRunAsUser()).as(c.getName()).isNotEqualTo(0L);
                assertThat(c.getPorts()).allSatisfy(p -> assertThat(p.getHostPort()).isNull());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void noSecretValueAppearsOutsideSecretData(String name, Instance inst, CatalogContext ctx) {
        for (HasMetadata o : objects(inst, ctx)) {
            String json = SERIALIZATION.asJson(o);
            if (o instanceof Secret secret) {
                assertThat(secret.getStringData()).as(label(o)).isNullOrEmpty();
                secret.setData(null);
                json = SERIALIZATION.asJson(secret);
            }
            for (String value : Fixtures.SECRET_VALUES) {
                String base64 = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
                assertThat(json).as(label(o)).doesNotContain(value).doesNotContain(base64);
            }
        }
    }

    /** Engines and notebooks read the root principal; the token broker's key is Polaris's alone. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void onlyTheTokenBrokerSecretIsMarkedPrivate(String name, Instance inst, CatalogContext ctx) {
        Map<String, String> privateLabel = ofType(objects(inst, ctx), Secret.class).stream().collect(Collectors.toMap(
                s -> s.getMetadata().getName(), s -> s.getMetadata().getLabels().getOrDefault(Labels.PRIVATE, "-")));
        String tokenBroker = CatalogNames.tokenBrokerSecret(Fixtures.NAME);
        assertThat(privateLabel).containsEntry(tokenBroker, "true")
                .containsEntry(CatalogNames.rootPrincipalSecret(Fixtures.NAME), "-")
                .allSatisfy((secret, label) -> assertThat(label).isEqualTo(secret.equals(tokenBroker) ? "true" : "-"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theRootPrincipalSecretHasWhatEnginesNeed(String name, Instance inst, CatalogContext ctx) {
        Secret secret = ofType(objects(inst, ctx), Secret.class).stream()
                .filter(s -> s.getMetadata().getName().equals(CatalogNames.rootPrincipalSecret(Fixtures.NAME)))
                .findFirst().orElseThrow();
        Map<String, String> data = secret.getData().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> new String(Base64.getDecoder().decode(e.getValue()), StandardCharsets.UTF_8)));
        assertThat(data).containsOnly(
                Map.entry(CatalogSecrets.CLIENT_ID, Fixtures.CLIENT_ID),
                Map.entry(CatalogSecrets.CLIENT_SECRET, Fixtures.CLIENT_SECRET),
                Map.entry(CatalogSecrets.CATALOG_URI, "http://warehouse.team-a.svc:8181/api/catalog"),
                Map.entry(CatalogSecrets.CATALOG_NAME, "lakehouse"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisListensOn8181AndIsProbedOnTheManagementPort8182(String name, Instance inst,
            CatalogContext ctx) {
        Container polaris = polaris(objects(inst, ctx));
        assertThat(polaris.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
                .containsExactlyInAnyOrder("http:8181", "management:8182");
        assertThat(polaris.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
        assertThat(polaris.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
        assertThat(polaris.getStartupProbe().getHttpGet().getPath()).startsWith("/q/health");
        for (var probe : List.of(polaris.getLivenessProbe(), polaris.getReadinessProbe(), polaris.getStartupProbe())) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("management");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisUsesTheCnpgAppSecretForJdbcPersistence(String name, Instance inst, CatalogContext ctx) {
        Map<String, EnvVar> env = env(polaris(objects(inst, ctx)));
        assertThat(env.get("POLARIS_PERSISTENCE_TYPE").getValue()).isEqualTo("relational-jdbc");
        Map<String, String> keys = Map.of("QUARKUS_DATASOURCE_JDBC_URL", "jdbc-uri",
                "QUARKUS_DATASOURCE_USERNAME", "username", "QUARKUS_DATASOURCE_PASSWORD", "password");
        keys.forEach((variable, key) -> {
            var ref = env.get(variable).getValueFrom().getSecretKeyRef();
            assertThat(ref.getName()).as(variable).isEqualTo("warehouse-db-app");
            assertThat(ref.getKey()).as(variable).isEqualTo(key);
        });
    }

    /**
     * Realm and token broker in application.properties under /deployments/config (the form Polaris' own
     * chart uses), the fixed key beside it from its Secret; no rotating log file.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisReadsItsRealmAndAFixedTokenBrokerKeyFromApplicationProperties(String name, Instance inst,
            CatalogContext ctx) throws Exception {
        List<HasMetadata> objects = objects(inst, ctx);
        Container polaris = polaris(objects);
        assertThat(env(polaris).keySet()).noneMatch(k -> k.startsWith("POLARIS_AUTHENTICATION")
                || k.startsWith("POLARIS_REALM"));
        ConfigMap config = ofType(objects, ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().equals("warehouse-config")).findFirst().orElseThrow();
        Properties props = new Properties();
        props.load(new java.io.StringReader(config.getData().get("application.properties")));
        assertThat(props).containsEntry("polaris.realm-context.realms", "POLARIS")
                .containsEntry("polaris.authentication.token-broker.type", "symmetric-key")
                .containsEntry("polaris.authentication.token-broker.symmetric-key.file",
                        "/deployments/config/token-broker/symmetric.key")
                .containsEntry("quarkus.log.file.enable", "false");

        var mount = polaris.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/deployments/config"))
                .findFirst().orElseThrow();
        var volume = pod(objects).getVolumes().stream().filter(v -> v.getName().equals(mount.getName()))
                .findFirst().orElseThrow();
        List<String> projected = volume.getProjected().getSources().stream()
                .map(p -> p.getConfigMap() != null
                        ? p.getConfigMap().getName() + ":" + p.getConfigMap().getItems().get(0).getPath()
                        : p.getSecret().getName() + ":" + p.getSecret().getItems().get(0).getPath())
                .toList();
        assertThat(projected).containsExactly("warehouse-config:application.properties",
                CatalogNames.tokenBrokerSecret(Fixtures.NAME) + ":token-broker/" + CatalogSecrets.SYMMETRIC_KEY);
        // A changed file rolls the pods.
        assertThat(ofType(objects, Deployment.class).get(0).getSpec().getTemplate().getMetadata().getAnnotations())
                .containsKey("lakehouse.io/config-checksum");
    }

    /** Polaris writes the warehouse's metadata: the cluster's S3 checksum setting reaches it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisComputesS3ChecksumsOnlyWhenRequiredIfTheClusterSaysSo(String name, Instance inst,
            CatalogContext ctx) {
        Map<String, EnvVar> env = env(polaris(objects(inst, ctx)));
        if (ctx.s3ChecksumWhenRequired()) {
            assertThat(env.get("AWS_REQUEST_CHECKSUM_CALCULATION").getValue()).isEqualTo("when_required");
            assertThat(env.get("AWS_RESPONSE_CHECKSUM_VALIDATION").getValue()).isEqualTo("when_required");
        } else {
            assertThat(env).doesNotContainKeys("AWS_REQUEST_CHECKSUM_CALCULATION", "AWS_RESPONSE_CHECKSUM_VALIDATION");
        }
    }

    /** Read-only root filesystem; Polaris' temporary files go to an emptyDir on /tmp. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisRunsOnAReadOnlyRootWithAWritableTmp(String name, Instance inst, CatalogContext ctx) {
        List<HasMetadata> objects = objects(inst, ctx);
        Container polaris = polaris(objects);
        assertThat(polaris.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        var tmp = polaris.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp")).findFirst()
                .orElseThrow();
        assertThat(tmp.getReadOnly()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod(objects).getVolumes().stream().filter(v -> v.getName().equals(tmp.getName())).findFirst()
                .orElseThrow().getEmptyDir()).isNotNull();
    }

    private static PodSpec pod(List<HasMetadata> objects) {
        return ofType(objects, Deployment.class).get(0).getSpec().getTemplate().getSpec();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisWritesMetadataWithTheBucketsStaticKeysAndRegion(String name, Instance inst,
            CatalogContext ctx) {
        Map<String, EnvVar> env = env(polaris(objects(inst, ctx)));
        String expectedSecret = inst.sealedCredentials() == null ? Fixtures.BUCKET_SECRET
                : CatalogNames.s3Secret(Fixtures.NAME);
        for (String variable : List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")) {
            var ref = env.get(variable).getValueFrom().getSecretKeyRef();
            assertThat(ref.getName()).as(variable).isEqualTo(expectedSecret);
            assertThat(ref.getKey()).as(variable).isEqualTo(variable);
        }
        assertThat(env.get("AWS_REGION").getValue()).isEqualTo(Fixtures.REGION);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theServiceSelectsThePolarisPodOnBothPorts(String name, Instance inst, CatalogContext ctx) {
        List<HasMetadata> objects = objects(inst, ctx);
        Service service = ofType(objects, Service.class).get(0);
        Deployment deployment = ofType(objects, Deployment.class).get(0);
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(service.getSpec().getPorts()).extracting(p -> p.getPort() + "->" + p.getTargetPort().getStrVal())
                .containsExactlyInAnyOrder("8181->http", "8182->management");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theIngressExposesOnlyTheRestApiOnTheInstanceHost(String name, Instance inst, CatalogContext ctx) {
        Ingress ingress = ofType(objects(inst, ctx), Ingress.class).get(0);
        assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getHost()).isEqualTo("warehouse-team-a." + ctx.domain());
            assertThat(rule.getHttp().getPaths()).singleElement().satisfies(path -> {
                assertThat(path.getPath()).isEqualTo("/api/catalog");
                assertThat(path.getPathType()).isEqualTo("Prefix");
                assertThat(path.getBackend().getService().getName()).isEqualTo(Fixtures.NAME);
                assertThat(path.getBackend().getService().getPort().getNumber()).isEqualTo(8181);
            });
        });
        if (ctx.tlsSecret() != null) {
            assertThat(ingress.getSpec().getTls()).singleElement().satisfies(tls -> {
                assertThat(tls.getSecretName()).isEqualTo(ctx.tlsSecret());
                assertThat(tls.getHosts()).containsExactly("warehouse-team-a." + ctx.domain());
            });
        }
    }

    /** Every pod of the instance (server and both tasks) pulls with the cluster's registry Secret. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyPodPullsWithTheClusterPullSecret(String name, Instance inst, CatalogContext ctx) {
        List<PodTemplateSpec> templates = podTemplates(objects(inst, ctx));
        assertThat(templates).hasSize(3);
        for (PodTemplateSpec t : templates) {
            List<String> secrets = t.getSpec().getImagePullSecrets().stream().map(r -> r.getName()).toList();
            assertThat(secrets).isEqualTo(ctx.imagePullSecret() == null ? List.of() : List.of(ctx.imagePullSecret()));
        }
    }

    /**
     * Polaris starts once its database answers: an init container of its own image waits for the
     * CloudNativePG primary behind {@code <cluster>-rw}, instead of Polaris crash-looping meanwhile.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void polarisWaitsForThePrimaryOfItsDatabase(String name, Instance inst, CatalogContext ctx) {
        PodSpec pod = ofType(objects(inst, ctx), Deployment.class).get(0).getSpec().getTemplate().getSpec();
        // First: the CA bundle's truststore (production has one) is written after it.
        assertThat(pod.getInitContainers()).first().satisfies(wait -> {
            assertThat(wait.getImage()).isEqualTo(ctx.polarisImage());
            assertThat(String.join(" ", wait.getCommand())).contains("/dev/tcp/warehouse-db-rw/5432");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyImageComesFromTheContext(String name, Instance inst, CatalogContext ctx) {
        List<String> images = podTemplates(objects(inst, ctx)).stream()
                .flatMap(t -> t.getSpec().getContainers().stream()).map(Container::getImage).toList();
        assertThat(images).containsExactlyInAnyOrder(ctx.polarisImage(), ctx.adminToolImage(), ctx.curlImage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theS3SecretExistsOnlyForInlineKeys(String name, Instance inst, CatalogContext ctx) {
        List<String> secrets = ofType(objects(inst, ctx), Secret.class).stream()
                .map(s -> s.getMetadata().getName()).toList();
        if (inst.sealedCredentials() == null) {
            assertThat(secrets).doesNotContain(CatalogNames.s3Secret(Fixtures.NAME));
        } else {
            assertThat(secrets).contains(CatalogNames.s3Secret(Fixtures.NAME));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void objectNamesAndLabelValuesFitKubernetesLimits(String name, Instance inst, CatalogContext ctx) {
        for (HasMetadata o : objects(inst, ctx)) {
            assertThat(o.getMetadata().getName()).hasSizeLessThanOrEqualTo(63);
            o.getMetadata().getLabels().values().forEach(v -> assertThat(v).hasSizeLessThanOrEqualTo(63));
        }
    }
}
