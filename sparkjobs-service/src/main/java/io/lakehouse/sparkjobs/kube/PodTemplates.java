package io.lakehouse.sparkjobs.kube;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.JobNames;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Spark pod templates of a job (the main containers must carry Spark's names). Code and
 * credentials reach the pods here: the code volume at {@code /opt/job} and its fetching init
 * container, Secret references as env. User text only ever lands in separate args or env values.
 *
 * <p>Written as JSON trees directly (a launch builds two templates): the parts every job shares come from
 * {@code common}'s builders once, then are copied; fabric8's builders and a conversion per launch were
 * most of a launch's CPU.
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
    private static final ObjectNode RESTRICTED_CONTAINER =
            SparkApplications.JSON.valueToTree(PodSecurity.restrictedContainer());
    /** The fetcher's requests and limits: small, it only copies the code. */
    private static final ObjectNode FETCHER_RESOURCES = SparkApplications.JSON.valueToTree(
            new ResourceRequirementsBuilder()
                    .withRequests(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("64Mi")))
                    .withLimits(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi")))
                    .build());
    /** The restricted pod context by uid (the setting is one per process). */
    private static final Map<Long, ObjectNode> RESTRICTED_POD = new ConcurrentHashMap<>();

    private PodTemplates() {}

    static ObjectNode driver(JobPlan plan, SparkJobSettings settings) {
        ArrayNode env = secretEnv(plan);
        s3ChecksumEnv(plan, env);
        String opts = submitOpts(plan.profile().sparkConfFromEnv());
        if (!opts.isEmpty()) {
            plain(env, SUBMIT_OPTS, opts);
        }
        return template(plan, settings, DRIVER_CONTAINER, env, true);
    }

    static ObjectNode executor(JobPlan plan, SparkJobSettings settings) {
        // A jar given as local:// must be on every executor too; a Python main file only on the driver.
        boolean code = plan.form().mainClass() != null;
        ArrayNode env = secretEnv(plan);
        s3ChecksumEnv(plan, env);
        return template(plan, settings, EXECUTOR_CONTAINER, env, code);
    }

    /** Keys in fabric8's order (alphabetical), so the JSON sent is what its builders sent. */
    private static ObjectNode template(JobPlan plan, SparkJobSettings settings, String container, ArrayNode env,
            boolean withCode) {
        ObjectNode template = SparkApplications.JSON.createObjectNode();
        ObjectNode spec = template.putObject("spec");
        ObjectNode main = spec.putArray("containers").addObject();
        if (!env.isEmpty()) {
            main.set("env", env);
        }
        main.put("name", container).set("securityContext", RESTRICTED_CONTAINER.deepCopy());
        // Thousands of finished jobs keep a Service each; their link variables overflow a pod's env.
        spec.put("enableServiceLinks", false);
        boolean fetch = withCode && !plan.typedScript();
        List<String> certs = plan.caCertificates();
        if (fetch || !certs.isEmpty()) {
            ArrayNode inits = spec.putArray("initContainers");
            // The truststore from the job's own image (its JDK's roots + the bundle), a PEM file for the fetcher.
            CaBundle.javaInit(plan.profile().image(), certs).forEach(c -> inits.add(tree(c)));
            if (fetch) {
                CaBundle.pythonInit(plan.profile().image(), certs).forEach(c -> inits.add(tree(c)));
                inits.add(fetcher(plan, settings));
            }
        }
        spec.set("securityContext", RESTRICTED_POD.computeIfAbsent(settings.runAsUser(),
                uid -> SparkApplications.JSON.valueToTree(PodSecurity.restrictedPod(uid, uid))).deepCopy());
        if (withCode || !certs.isEmpty()) {
            ArrayNode volumes = spec.putArray("volumes");
            ArrayNode mounts = main.putArray("volumeMounts");
            if (withCode) {
                codeVolume(plan, volumes.addObject());
                codeMount(mounts, plan.typedScript());
            }
            if (!certs.isEmpty()) {
                caVolumes(plan, volumes);
                trustMount(mounts);
            }
        }
        return template;
    }

    /**
     * The bundle's certificates from the job's ConfigMap and the emptyDir the init containers fill (what
     * {@link CaBundle#volumes} gives an instance, from the job's ConfigMap instead of {@code <name>-ca-certs}).
     */
    private static void caVolumes(JobPlan plan, ArrayNode volumes) {
        ObjectNode volume = volumes.addObject();
        ObjectNode configMap = volume.putObject("configMap");
        items(configMap, CaBundle.files(plan.caCertificates()).keySet());
        configMap.put("name", JobNames.configMap(plan.name()));
        volume.put("name", CaBundle.CA_VOLUME);
        volumes.addObject().put("name", CaBundle.TRUST_VOLUME).putObject("emptyDir").put("sizeLimit", "16Mi");
    }

    private static void trustMount(ArrayNode mounts) {
        mounts.addObject().put("mountPath", CaBundle.TRUST_DIR).put("name", CaBundle.TRUST_VOLUME)
                .put("readOnly", true);
    }

    /** The ConfigMap's keys to mount (a script's ConfigMap also holds the certificates, and the reverse). */
    private static void items(ObjectNode configMap, Iterable<String> keys) {
        ArrayNode items = configMap.putArray("items");
        keys.forEach(key -> items.addObject().put("key", key).put("path", key));
    }

    private static ObjectNode tree(Container container) {
        return SparkApplications.JSON.valueToTree(container);
    }

    private static void codeVolume(JobPlan plan, ObjectNode volume) {
        if (plan.typedScript()) {
            ObjectNode configMap = volume.putObject("configMap");
            if (!plan.caCertificates().isEmpty()) {
                items(configMap, List.of(SparkApplications.SCRIPT_KEY));
            }
            configMap.put("name", JobNames.configMap(plan.name()));
        } else {
            volume.putObject("emptyDir").put("sizeLimit", "1Gi");
        }
        volume.put("name", CODE_VOLUME);
    }

    private static void codeMount(ArrayNode mounts, boolean readOnly) {
        ObjectNode mount = mounts.addObject().put("mountPath", SparkApplications.codeDir()).put("name", CODE_VOLUME);
        if (readOnly) {
            mount.put("readOnly", true);
        }
    }

    /** The init container that fills the code volume from S3 or Git. */
    private static ObjectNode fetcher(JobPlan plan, SparkJobSettings settings) {
        LaunchForm.Source source = plan.form().source();
        boolean s3 = "s3".equals(source.type());
        ObjectNode c = SparkApplications.JSON.createObjectNode();
        ArrayNode args = c.putArray("args");
        ArrayNode env = c.putArray("env");
        c.put("image", s3 ? settings.s3Image() : settings.gitImage()).put("name", "fetch-code");
        c.set("resources", FETCHER_RESOURCES.deepCopy());
        c.set("securityContext", RESTRICTED_CONTAINER.deepCopy());
        ArrayNode mounts = c.putArray("volumeMounts");
        codeMount(mounts, false);
        if (!plan.caCertificates().isEmpty()) {
            // aws-cli and git trust this one file instead of their roots: the image's roots + the bundle.
            plain(env, s3 ? "AWS_CA_BUNDLE" : "GIT_SSL_CAINFO", CaBundle.PEM_BUNDLE);
            trustMount(mounts);
        }
        String dir = SparkApplications.codeDir();
        if (s3) {
            BucketSecrets.Bucket bucket = plan.bucket();
            secretRef(env, BucketSecrets.ACCESS_KEY_ID, bucket.credentialsSecret(), BucketSecrets.ACCESS_KEY_ID);
            secretRef(env, BucketSecrets.SECRET_ACCESS_KEY, bucket.credentialsSecret(), BucketSecrets.SECRET_ACCESS_KEY);
            plain(env, "HOME", "/tmp");
            if (bucket.region() != null) {
                plain(env, "AWS_DEFAULT_REGION", bucket.region());
            }
            s3ChecksumEnv(plan, env);
            add(args, "s3", "cp", "--no-progress", "s3://" + bucket.bucket() + "/" + source.path(),
                    dir + "/" + source.path());
            if (bucket.endpoint() != null) {
                add(args, "--endpoint-url", bucket.endpoint());
            }
            return c;
        }
        plain(env, "HOME", "/tmp");
        plain(env, "GIT_TERMINAL_PROMPT", "0");
        if (source.credentialsSecret() != null) {
            secretRef(env, "GIT_TOKEN", source.credentialsSecret(), "token");
            add(args, "-c", GIT_CREDENTIALS);
        }
        add(args, "clone", "--depth", "1", "--single-branch");
        if (source.branch() != null) {
            add(args, "--branch", source.branch());
        }
        add(args, "--", source.repository(), dir + "/" + REPO_DIR);
        return c;
    }

    /** The cluster's S3 store rejects the newer SDKs' default checksums: only when required (aws-cli, Iceberg). */
    private static void s3ChecksumEnv(JobPlan plan, ArrayNode env) {
        if (plan.cluster().s3ChecksumWhenRequired()) {
            plain(env, "AWS_REQUEST_CHECKSUM_CALCULATION", "when_required");
            plain(env, "AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required");
        }
    }

    private static ArrayNode secretEnv(JobPlan plan) {
        ArrayNode env = SparkApplications.JSON.createArrayNode();
        plan.profile().secretEnv().forEach(e -> secretRef(env, e.name(), e.secret(), e.key()));
        return env;
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

    private static void secretRef(ArrayNode env, String name, String secret, String key) {
        env.addObject().put("name", name).putObject("valueFrom").putObject("secretKeyRef")
                .put("key", key).put("name", secret);
    }

    private static void plain(ArrayNode env, String name, String value) {
        env.addObject().put("name", name).put("value", value);
    }

    private static void add(ArrayNode array, String... values) {
        for (String value : values) {
            array.add(value);
        }
    }
}
