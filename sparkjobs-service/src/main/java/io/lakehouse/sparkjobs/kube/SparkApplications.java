package io.lakehouse.sparkjobs.kube;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.JobNames;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import io.lakehouse.sparkjobs.domain.LaunchRules;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job's SparkApplication (sparkoperator.k8s.io/v1beta2), pure. Every field the operator's webhook
 * would default is set here, and volumes, init containers, env and security contexts go through the
 * driver/executor pod templates, which work without the webhook (research notes §0.1, §1.2).
 */
public final class SparkApplications {

    static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_EMPTY);
    private static final String CODE_DIR = "/opt/job";
    static final String SCRIPT_KEY = "main.py";

    private SparkApplications() {}

    public static GenericKubernetesResource of(JobPlan plan, SparkJobSettings settings, String managedBy) {
        return resource(SparkResources.APPLICATION, plan, JobLabels.of(plan.name(), plan.schedule(), managedBy),
                spec(plan, settings));
    }

    /**
     * A resource of ours as the client sends it, made directly (no conversion of a tree): the labels and
     * annotations (form, author) every job's object carries, the spec as a JSON tree.
     */
    static GenericKubernetesResource resource(String kind, JobPlan plan, Map<String, String> labels, ObjectNode spec) {
        ObjectMeta meta = new ObjectMeta();
        meta.setName(plan.name());
        meta.setNamespace(plan.namespace());
        meta.setLabels(labels);
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(JobLabels.FORM, formJson(plan.form()));
        annotations.put(JobLabels.CREATED_BY, plan.createdBy());
        meta.setAnnotations(annotations);
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion(SparkResources.API_VERSION);
        resource.setKind(kind);
        resource.setMetadata(meta);
        resource.setAdditionalProperty("spec", spec);
        return resource;
    }

    /** The spec alone: a ScheduledSparkApplication's template is the same. */
    public static ObjectNode spec(JobPlan plan, SparkJobSettings settings) {
        LaunchForm form = plan.form();
        ObjectNode spec = JSON.createObjectNode()
                .put("type", form.mainClass() == null ? "Python" : "Scala")
                .put("mode", "cluster")
                .put("sparkVersion", settings.sparkVersion())
                .put("image", plan.profile().image())
                .put("imagePullPolicy", "IfNotPresent")
                .put("mainApplicationFile", "local://" + codePath(form));
        if (!plan.pullSecrets().isEmpty()) {
            ArrayNode secrets = spec.putArray("imagePullSecrets");
            plan.pullSecrets().forEach(secrets::add);
        }
        if (form.mainClass() != null) {
            spec.put("mainClass", form.mainClass());
        }
        if (!form.arguments().isEmpty()) {
            ArrayNode args = spec.putArray("arguments");
            form.arguments().forEach(args::add);
        }
        ObjectNode conf = spec.putObject("sparkConf");
        plan.profile().sparkConf().forEach(conf::put);
        form.sparkConf().forEach(conf::put);
        trustCaBundle(plan, conf);
        spec.putObject("restartPolicy").put("type", "Never");
        spec.put("timeToLiveSeconds", form.ttlHours() * 3600L);
        ObjectNode driver = spec.putObject("driver")
                .put("cores", form.driver().cores())
                .put("coreLimit", String.valueOf(form.driver().cores()))
                .put("memory", form.driver().memory())
                .put("serviceAccount", settings.serviceAccount());
        driver.set("template", PodTemplates.driver(plan, settings));
        ObjectNode executor = spec.putObject("executor")
                .put("instances", form.executor().instances())
                .put("cores", form.executor().cores())
                .put("coreLimit", String.valueOf(form.executor().cores()))
                .put("memory", form.executor().memory())
                .put("serviceAccount", settings.serviceAccount());
        executor.set("template", PodTemplates.executor(plan, settings));
        return spec;
    }

    /**
     * The JVM options that make driver and executors trust the cluster's CA bundle, after any the job's
     * {@code spark.*} properties set: the JVM keeps the last {@code -D} of a property, so none overrides them.
     */
    private static void trustCaBundle(JobPlan plan, ObjectNode conf) {
        if (plan.caCertificates().isEmpty()) {
            return;
        }
        String options = String.join(" ", CaBundle.javaOptions(plan.caCertificates()));
        for (String key : LaunchRules.JAVA_OPTIONS) {
            String given = conf.path(key).asText("");
            conf.put(key, given.isBlank() ? options : given + " " + options);
        }
    }

    /**
     * The job's ConfigMap ({@link JobPlan#hasConfigMap()}): a typed script's code (key {@code main.py}, mounted
     * at {@code /opt/job}) and the cluster's CA certificates ({@code ca-1.crt}, …), whichever the job has.
     */
    public static ConfigMap configMap(JobPlan plan, String managedBy) {
        Map<String, String> data = new LinkedHashMap<>();
        if (plan.typedScript()) {
            data.put(SCRIPT_KEY, plan.form().source().script());
        }
        data.putAll(CaBundle.files(plan.caCertificates()));
        return new ConfigMapBuilder()
                .withNewMetadata().withName(JobNames.configMap(plan.name())).withNamespace(plan.namespace())
                .withLabels(JobLabels.of(plan.name(), plan.schedule(), managedBy)).endMetadata()
                .withData(data)
                .build();
    }

    /** Where the job's main file is in the driver: the ConfigMap's key, the S3 object, or the clone's file. */
    static String codePath(LaunchForm form) {
        String file = LaunchRules.mainFile(form);
        return "git".equals(form.source().type()) ? CODE_DIR + "/" + PodTemplates.REPO_DIR + "/" + file
                : CODE_DIR + "/" + file;
    }

    static String codeDir() {
        return CODE_DIR;
    }

    /** The form as annotated and stored: no script text, no credential (the form never holds one). */
    public static String formJson(LaunchForm form) {
        try {
            return JSON.writeValueAsString(form.withoutScript());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
