package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.JobNames;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Spark pod templates of a job (the main containers must carry Spark's names). Code and
 * credentials reach the pods here: the code volume at {@code /opt/job} and its fetching init
 * container, Secret references as env. User text only ever lands in separate args or env values.
 */
final class PodTemplates {

    static final String DRIVER_CONTAINER = "spark-kubernetes-driver";
    static final String EXECUTOR_CONTAINER = "spark-kubernetes-executor";
    static final String CODE_VOLUME = "job-code";
    static final String REPO_DIR = "repo";
    /**
     * The launcher adds these JVM options to spark-submit in the driver pod (client mode there), and
     * SparkConf takes {@code -Dspark.*} system properties: the catalog's credentials become properties
     * only inside the pod, Kubernetes expanding {@code $(VAR)} from the Secret-fed variables before it.
     */
    static final String SUBMIT_OPTS = "SPARK_SUBMIT_OPTS";
    /** A credential helper of constant text: it reads the token from the environment, never from user text. */
    static final String GIT_CREDENTIALS = "credential.helper=!f() { echo username=token; echo \"password=$GIT_TOKEN\"; }; f";
    private static final Pattern SHELL_VAR = Pattern.compile("\\$\\{([A-Z_][A-Z0-9_]*)}");

    private PodTemplates() {}

    static PodTemplateSpec driver(JobPlan plan, SparkJobSettings settings) {
        List<EnvVar> env = new ArrayList<>(secretEnv(plan));
        env.addAll(s3ChecksumEnv(plan));
        String opts = submitOpts(plan.profile().sparkConfFromEnv());
        if (!opts.isEmpty()) {
            env.add(new EnvVarBuilder().withName(SUBMIT_OPTS).withValue(opts).build());
        }
        return template(plan, settings, DRIVER_CONTAINER, env, true);
    }

    static PodTemplateSpec executor(JobPlan plan, SparkJobSettings settings) {
        // A jar given as local:// must be on every executor too; a Python main file only on the driver.
        boolean code = plan.form().mainClass() != null;
        List<EnvVar> env = new ArrayList<>(secretEnv(plan));
        env.addAll(s3ChecksumEnv(plan));
        return template(plan, settings, EXECUTOR_CONTAINER, env, code);
    }

    private static PodTemplateSpec template(JobPlan plan, SparkJobSettings settings, String container, List<EnvVar> env,
            boolean withCode) {
        ContainerBuilder main = new ContainerBuilder().withName(container)
                .withSecurityContext(PodSecurity.restrictedContainer()).withEnv(env);
        List<Volume> volumes = new ArrayList<>();
        List<Container> init = new ArrayList<>();
        if (withCode) {
            volumes.add(codeVolume(plan));
            main.withVolumeMounts(codeMount("script".equals(plan.sourceType())));
            fetcher(plan, settings).ifPresent(init::add);
        }
        return new PodTemplateSpecBuilder()
                .withNewSpec()
                // Thousands of finished jobs keep a Service each; their link variables overflow a pod's env.
                .withEnableServiceLinks(false)
                .withSecurityContext(PodSecurity.restrictedPod(settings.runAsUser(), settings.runAsUser()))
                .withVolumes(volumes)
                .withInitContainers(init)
                .withContainers(main.build())
                .endSpec()
                .build();
    }

    private static Volume codeVolume(JobPlan plan) {
        VolumeBuilder volume = new VolumeBuilder().withName(CODE_VOLUME);
        if ("script".equals(plan.sourceType())) {
            return volume.withNewConfigMap().withName(JobNames.configMap(plan.name())).endConfigMap().build();
        }
        return volume.withNewEmptyDir().withSizeLimit(new Quantity("1Gi")).endEmptyDir().build();
    }

    private static VolumeMount codeMount(boolean readOnly) {
        return new VolumeMountBuilder().withName(CODE_VOLUME).withMountPath(SparkApplications.codeDir())
                .withReadOnly(readOnly ? true : null).build();
    }

    private static java.util.Optional<Container> fetcher(JobPlan plan, SparkJobSettings settings) {
        LaunchForm.Source source = plan.form().source();
        ContainerBuilder c = new ContainerBuilder().withName("fetch-code")
                .withSecurityContext(PodSecurity.restrictedContainer())
                .withVolumeMounts(codeMount(false))
                .withResources(new ResourceRequirementsBuilder()
                        .withRequests(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("64Mi")))
                        .withLimits(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi")))
                        .build());
        String dir = SparkApplications.codeDir();
        if ("s3".equals(source.type())) {
            BucketSecrets.Bucket bucket = plan.bucket();
            List<EnvVar> env = new ArrayList<>(List.of(
                    secretRef(BucketSecrets.ACCESS_KEY_ID, bucket.credentialsSecret(), BucketSecrets.ACCESS_KEY_ID),
                    secretRef(BucketSecrets.SECRET_ACCESS_KEY, bucket.credentialsSecret(),
                            BucketSecrets.SECRET_ACCESS_KEY),
                    plain("HOME", "/tmp")));
            if (bucket.region() != null) {
                env.add(plain("AWS_DEFAULT_REGION", bucket.region()));
            }
            env.addAll(s3ChecksumEnv(plan));
            List<String> args = new ArrayList<>(List.of("s3", "cp", "--no-progress",
                    "s3://" + bucket.bucket() + "/" + source.path(), dir + "/" + source.path()));
            if (bucket.endpoint() != null) {
                args.addAll(List.of("--endpoint-url", bucket.endpoint()));
            }
            return java.util.Optional.of(c.withImage(settings.s3Image()).withArgs(args).withEnv(env).build());
        }
        if ("git".equals(source.type())) {
            List<EnvVar> env = new ArrayList<>(List.of(plain("HOME", "/tmp"), plain("GIT_TERMINAL_PROMPT", "0")));
            List<String> args = new ArrayList<>();
            if (source.credentialsSecret() != null) {
                env.add(secretRef("GIT_TOKEN", source.credentialsSecret(), "token"));
                args.addAll(List.of("-c", GIT_CREDENTIALS));
            }
            args.addAll(List.of("clone", "--depth", "1", "--single-branch"));
            if (source.branch() != null) {
                args.addAll(List.of("--branch", source.branch()));
            }
            args.addAll(List.of("--", source.repository(), dir + "/" + REPO_DIR));
            return java.util.Optional.of(c.withImage(settings.gitImage()).withArgs(args).withEnv(env).build());
        }
        return java.util.Optional.empty();
    }

    /** The cluster's S3 store rejects the newer SDKs' default checksums: only when required (aws-cli, Iceberg). */
    private static List<EnvVar> s3ChecksumEnv(JobPlan plan) {
        return plan.cluster().s3ChecksumWhenRequired()
                ? List.of(plain("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required"),
                        plain("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required"))
                : List.of();
    }

    private static List<EnvVar> secretEnv(JobPlan plan) {
        return plan.profile().secretEnv().stream().map(e -> secretRef(e.name(), e.secret(), e.key())).toList();
    }

    /** {@code -Dkey=value} words, {@code ${VAR}} turned into Kubernetes' {@code $(VAR)}. */
    static String submitOpts(Map<String, String> fromEnv) {
        return fromEnv.entrySet().stream()
                .map(e -> "-D" + e.getKey() + "=" + kubeVars(e.getValue()))
                .map(word -> word.contains(" ") ? "\"" + word + "\"" : word)
                .collect(Collectors.joining(" "));
    }

    private static String kubeVars(String value) {
        Matcher m = SHELL_VAR.matcher(value);
        return m.replaceAll(r -> Matcher.quoteReplacement("$(" + r.group(1) + ")"));
    }

    private static EnvVar secretRef(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewSecretKeyRef()
                .withName(secret).withKey(key).endSecretKeyRef().endValueFrom().build();
    }

    private static EnvVar plain(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }
}
