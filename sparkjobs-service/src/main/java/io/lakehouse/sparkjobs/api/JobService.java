package io.lakehouse.sparkjobs.api;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.JobNames;
import io.lakehouse.sparkjobs.domain.JobProfile;
import io.lakehouse.sparkjobs.domain.JobState;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import io.lakehouse.sparkjobs.domain.LaunchRules;
import io.lakehouse.sparkjobs.events.JobEvents;
import io.lakehouse.sparkjobs.kube.JobPlan;
import io.lakehouse.sparkjobs.kube.SparkApplications;
import io.lakehouse.sparkjobs.kube.SparkAccounts;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.lakehouse.sparkjobs.store.JobRecord;
import io.lakehouse.sparkjobs.store.JobStore;
import io.lakehouse.sparkjobs.store.ProfileStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Launches jobs: checks the form, resolves the profile, bucket and Git token Secret, ensures the
 * {@code spark} account, creates the SparkApplication and its ConfigMap, then records the job and
 * {@code sparkjob.submitted} in one statement, whose unique key is the name check (a failed or refused record
 * removes what was created). Runs on worker threads: the Kubernetes client blocks.
 */
@ApplicationScoped
public class JobService {

    private final KubernetesClient kube;
    private final JobStore jobs;
    private final ProfileStore profiles;
    private final JobEvents events;
    private final SparkJobSettings settings;
    private final ServiceSettings service;
    private final SparkAccounts accounts;
    /** What the cluster's settings ask of every job's pods, read once (the CA bundle is parsed and checked). */
    private final JobPlan.ClusterPods cluster;

    JobService(KubernetesClient kube, JobStore jobs, ProfileStore profiles, JobEvents events,
            SparkJobSettings settings, ServiceSettings service, SparkAccounts accounts, ClusterSettings cluster) {
        this.kube = kube;
        this.accounts = accounts;
        this.jobs = jobs;
        this.profiles = profiles;
        this.events = events;
        this.settings = settings;
        this.service = service;
        this.cluster = JobPlan.ClusterPods.of(cluster);
    }

    public JobRecord launch(String namespace, LaunchForm form, String caller, String schedule) {
        if (form == null) {
            throw ApiException.badRequest("a launch form is required");
        }
        String name = form.name() != null ? form.name() : JobNames.suggest(form);
        JobPlan plan = prepare(namespace, form, name, caller, schedule, "");
        // A SparkApplication of that name (a job's or one made by hand) makes the create answer 409. A name the user
        // chose may also be a job of the history whose application is gone (the operator's TTL): asked first, so that
        // no application is created (the operator could start its driver) only to be removed. A generated name's
        // random suffix leaves that to the row's unique key (create, then remove on conflict).
        if (form.name() != null && jobs.get(namespace, name).await().indefinitely().isPresent()) {
            throw nameTaken(namespace, name);
        }
        return create(plan);
    }

    /**
     * Checks a form and resolves what it names (profile, bucket, Git token Secret) into a plan; 422 with
     * every problem, fields prefixed by {@code field} (a schedule's form is its {@code job}).
     */
    public JobPlan prepare(String namespace, LaunchForm form, String name, String caller, String schedule,
            String field) {
        List<FieldError> errors = new ArrayList<>(LaunchRules.check(form, settings.maxScriptBytes()));
        if (!cluster.caCertificates().isEmpty()) {
            errors.addAll(LaunchRules.checkAppendableJavaOptions(form));
        }
        if (!errors.isEmpty()) {
            throw ApiException.invalid(errors.stream()
                    .map(e -> new FieldError(field + e.field(), e.message())).toList());
        }
        LaunchForm normalized = LaunchRules.normalize(form, name, settings.defaultTtlHours());
        try {
            JobProfile profile = profile(namespace, normalized);
            BucketSecrets.Bucket bucket = bucket(namespace, normalized);
            requireGitToken(namespace, normalized);
            return new JobPlan(namespace, normalized, profile, bucket, schedule, caller,
                    this.cluster);
        } catch (ApiException e) {
            if (field.isEmpty() || e.errors().isEmpty()) {
                throw e;
            }
            throw ApiException.invalid(e.errors().stream()
                    .map(f -> new FieldError(field + f.field(), f.message())).toList());
        }
    }

    private JobRecord create(JobPlan plan) {
        String ns = plan.namespace();
        accounts.ensure(ns);
        GenericKubernetesResource app;
        try {
            app = kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns)
                    .resource(SparkApplications.of(plan, settings, service.name())).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                throw nameTaken(ns, plan.name());
            }
            if (e.getCode() == 404) {
                throw ApiException.unavailable("the Spark Operator is not installed (no SparkApplication resource)");
            }
            throw ApiException.unavailable("the Kubernetes API refused the SparkApplication: " + e.getStatus().getMessage());
        }
        // The job's ConfigMap (script, CA bundle) after its SparkApplication, owned by it (the operator's TTL
        // removes both); the pods wait for the mount until it exists.
        if (plan.hasConfigMap()) {
            ConfigMap configMap = SparkApplications.configMap(plan, service.name());
            configMap.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
                    .withApiVersion(SparkResources.API_VERSION).withKind(SparkResources.APPLICATION)
                    .withName(plan.name()).withUid(app.getMetadata().getUid()).build()));
            try {
                kube.configMaps().resource(configMap).createOr(existing -> existing.update());
            } catch (RuntimeException e) {
                kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).withName(plan.name())
                        .delete();
                throw e;
            }
        }
        JobRecord job = new JobRecord(ns, plan.name(), JobState.NEW, plan.sourceType(), plan.form().profile(),
                plan.schedule(), SparkApplications.formJson(plan.form()), plan.createdBy(),
                OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS), null, null, null);
        String text = plan.typedScript() ? plan.form().source().script() : null;
        boolean inserted;
        try {
            inserted = jobs.insertLaunched(job, text, events.submitted(job)).await().indefinitely();
        } catch (RuntimeException e) {
            removeCreated(plan);
            throw e;
        }
        if (!inserted) {
            removeCreated(plan);
            throw nameTaken(plan.namespace(), plan.name());
        }
        return job;
    }

    /** The profile named by the form, or the explicit image as one; 422 when the profile is unknown or overlaps. */
    private JobProfile profile(String namespace, LaunchForm form) {
        if (form.profile() == null) {
            return JobProfile.image(form.image(), form.pullSecret());
        }
        JobProfile profile = profiles.get(namespace, form.profile()).await().indefinitely()
                .orElseThrow(() -> ApiException.invalid("profile", "no spark-connect instance '" + form.profile()
                        + "' in namespace '" + namespace + "'"));
        List<FieldError> taken = form.sparkConf().keySet().stream()
                .filter(k -> profile.sparkConf().containsKey(k) || profile.sparkConfFromEnv().containsKey(k))
                .map(k -> new FieldError("sparkConf." + k, "is set by the profile '" + form.profile() + "'"))
                .toList();
        if (!taken.isEmpty()) {
            throw ApiException.invalid(taken);
        }
        return profile;
    }

    /** The namespace bucket of an S3 source: its Secret must be a bucket Secret with both keys. */
    private BucketSecrets.Bucket bucket(String namespace, LaunchForm form) {
        if (!"s3".equals(form.source().type())) {
            return null;
        }
        Secret secret = kube.secrets().inNamespace(namespace).withName(form.source().bucket()).get();
        Map<String, String> labels = secret == null || secret.getMetadata().getLabels() == null ? Map.of()
                : secret.getMetadata().getLabels();
        if (secret == null || !"true".equals(labels.get(BucketSecrets.LABEL)) || !BucketSecrets.hasKeys(secret)) {
            throw ApiException.invalid("source.bucket", "no bucket '" + form.source().bucket() + "' in namespace '"
                    + namespace + "'");
        }
        return BucketSecrets.describe(secret);
    }

    private void requireGitToken(String namespace, LaunchForm form) {
        String name = form.source().credentialsSecret();
        if (!"git".equals(form.source().type()) || name == null) {
            return;
        }
        Secret secret = kube.secrets().inNamespace(namespace).withName(name).get();
        boolean hasToken = secret != null && ((secret.getData() != null && secret.getData().containsKey("token"))
                || (secret.getStringData() != null && secret.getStringData().containsKey("token")));
        if (!hasToken) {
            throw ApiException.invalid("source.credentialsSecret", "no Secret '" + name + "' with a key 'token' in"
                    + " namespace '" + namespace + "'");
        }
    }

    /** Undoes a launch whose row was not written: its SparkApplication and ConfigMap go. */
    private void removeCreated(JobPlan plan) {
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(plan.namespace())
                .withName(plan.name()).delete();
        if (plan.hasConfigMap()) {
            kube.configMaps().inNamespace(plan.namespace()).withName(JobNames.configMap(plan.name())).delete();
        }
    }

    private static ApiException nameTaken(String namespace, String name) {
        return ApiException.conflict("a Spark job '" + name + "' already exists in namespace '" + namespace + "'");
    }

    static ApiException notFound(String namespace, String name) {
        return ApiException.notFound("no Spark job '" + name + "' in namespace '" + namespace + "'");
    }
}
