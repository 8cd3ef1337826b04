package io.lakehouse.sparkjobs.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.JobNames;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import io.lakehouse.sparkjobs.domain.ScheduleForm;
import io.lakehouse.sparkjobs.domain.SchedulePatch;
import io.lakehouse.sparkjobs.domain.ScheduleRules;
import io.lakehouse.sparkjobs.events.JobEvents;
import io.lakehouse.sparkjobs.kube.JobPlan;
import io.lakehouse.sparkjobs.kube.ScheduledApplications;
import io.lakehouse.sparkjobs.kube.SparkApplications;
import io.lakehouse.sparkjobs.kube.SparkAccounts;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.lakehouse.sparkjobs.store.JobRecord;
import io.lakehouse.sparkjobs.store.ScheduleRecord;
import io.lakehouse.sparkjobs.store.ScheduleStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Schedules: a ScheduledSparkApplication (the operator starts the runs) and a row with the runs' form;
 * run now launches one run from that form, marked as the schedule's. Worker threads: the client blocks.
 */
@ApplicationScoped
public class ScheduleService {

    static final int NEXT_RUNS = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient kube;
    private final Pool pool;
    private final ScheduleStore schedules;
    private final JobService launcher;
    private final JobEvents events;
    private final SparkJobSettings settings;
    private final ServiceSettings service;
    private final SparkAccounts accounts;

    ScheduleService(KubernetesClient kube, Pool pool, ScheduleStore schedules, JobService launcher, JobEvents events,
            SparkJobSettings settings, ServiceSettings service, SparkAccounts accounts) {
        this.kube = kube;
        this.accounts = accounts;
        this.pool = pool;
        this.schedules = schedules;
        this.launcher = launcher;
        this.events = events;
        this.settings = settings;
        this.service = service;
    }

    public ScheduleRecord create(String namespace, ScheduleForm form, String caller) {
        if (form == null) {
            throw ApiException.badRequest("a schedule form is required");
        }
        List<FieldError> errors = ScheduleRules.check(form);
        if (!errors.isEmpty()) {
            throw ApiException.invalid(errors);
        }
        JobPlan plan = launcher.prepare(namespace, form.job(), form.name(), caller, form.name(), "job.");
        if (schedules.get(namespace, form.name()).await().indefinitely().isPresent() || scheduled(namespace, form.name()) != null) {
            throw ApiException.conflict("a Spark schedule '" + form.name() + "' already exists in namespace '"
                    + namespace + "'");
        }
        int runsKept = form.runsKept() == null ? ScheduleRules.DEFAULT_RUNS_KEPT : form.runsKept();
        ScheduleRecord record = new ScheduleRecord(namespace, form.name(), form.cron().trim(), form.timeZone(),
                form.concurrencyPolicy(), runsKept, false, SparkApplications.formJson(plan.form()), caller,
                OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS));
        accounts.ensure(namespace);
        // The schedule's ConfigMap (script, CA bundle), which every run mounts, owned by the schedule once made.
        boolean configMap = plan.hasConfigMap();
        if (configMap) {
            kube.configMaps().resource(SparkApplications.configMap(plan, service.name()))
                    .createOr(existing -> existing.update());
        }
        GenericKubernetesResource created;
        try {
            created = kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(namespace)
                    .resource(object(plan, record)).create();
        } catch (KubernetesClientException e) {
            removeConfigMap(namespace, form.name(), configMap);
            throw e.getCode() == 409 ? ApiException.conflict("a Spark schedule '" + form.name() + "' already exists")
                    : ApiException.unavailable("the Kubernetes API refused the ScheduledSparkApplication: "
                            + e.getStatus().getMessage());
        }
        if (configMap && created.getMetadata().getUid() != null) {
            kube.configMaps().inNamespace(namespace).withName(JobNames.configMap(form.name())).edit(cm -> {
                cm.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion(SparkResources.API_VERSION).withKind(SparkResources.SCHEDULED)
                        .withName(form.name()).withUid(created.getMetadata().getUid()).build()));
                return cm;
            });
        }
        String text = plan.typedScript() ? plan.form().source().script() : null;
        try {
            pool.withTransaction(tx -> schedules.insert(tx, record, text).chain(inserted -> {
                if (!inserted) {
                    throw ApiException.conflict("a Spark schedule '" + form.name() + "' already exists");
                }
                return Outbox.append(tx, events.schedule(EventType.SPARKSCHEDULE_CREATED, record));
            })).await().indefinitely();
        } catch (RuntimeException e) {
            kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(namespace).withName(form.name())
                    .delete();
            removeConfigMap(namespace, form.name(), configMap);
            throw e;
        }
        return record;
    }

    /** Cron, zone, policy, runs kept, suspension: the row and the ScheduledSparkApplication's spec. */
    public ScheduleRecord update(String namespace, String name, SchedulePatch patch, Boolean suspend) {
        if (patch == null) {
            throw ApiException.badRequest("a patch is required");
        }
        List<FieldError> errors = ScheduleRules.check(patch);
        if (!errors.isEmpty()) {
            throw ApiException.invalid(errors);
        }
        ScheduleRecord current = find(namespace, name);
        ScheduleRecord next = current.with(patch.cron() == null ? null : patch.cron().trim(), patch.timeZone(),
                patch.concurrencyPolicy(), patch.runsKept(), suspend);
        if (next.equals(current)) {
            return current;
        }
        kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(namespace).withName(name).edit(o -> {
            @SuppressWarnings("unchecked")
            java.util.Map<String, Object> spec = (java.util.Map<String, Object>) o.getAdditionalProperties().get("spec");
            spec.put("schedule", next.cron());
            spec.put("timeZone", next.timeZone());
            spec.put("concurrencyPolicy", next.policy());
            spec.put("suspend", next.suspended());
            spec.put("successfulRunHistoryLimit", next.runsKept());
            spec.put("failedRunHistoryLimit", next.runsKept());
            return o;
        });
        pool.withTransaction(tx -> schedules.update(tx, next)
                .chain(() -> Outbox.append(tx, events.schedule(EventType.SPARKSCHEDULE_UPDATED, next))))
                .await().indefinitely();
        return next;
    }

    /** The ScheduledSparkApplication (the operator deletes its runs with it), its ConfigMap, its row; the runs' history stays. */
    public void delete(String namespace, String name) {
        ScheduleRecord current = find(namespace, name);
        kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(namespace).withName(name).delete();
        removeConfigMap(namespace, name, true);
        pool.withTransaction(tx -> schedules.delete(tx, namespace, name)
                .chain(() -> Outbox.append(tx, events.schedule(EventType.SPARKSCHEDULE_DELETED, current))))
                .await().indefinitely();
    }

    /** One run at once from the schedule's form (the profile resolved again), marked as the schedule's. */
    public JobRecord runNow(String namespace, String name, String caller) {
        ScheduleRecord current = find(namespace, name);
        LaunchForm form = read(current.form());
        if ("script".equals(form.source().type())) {
            form = form.withScript(schedules.script(namespace, name).await().indefinitely().orElse(null));
        }
        return launcher.launch(namespace, form.withName(JobNames.withSuffix(name)), caller, name);
    }

    public ScheduleView view(ScheduleRecord s) {
        List<String> next = s.suspended() ? List.of()
                : ScheduleRules.nextRuns(s.cron(), s.timeZone(), ZonedDateTime.now(ZoneOffset.UTC), NEXT_RUNS).stream()
                        .map(ZonedDateTime::toOffsetDateTime).map(OffsetDateTime::toString).toList();
        try {
            return new ScheduleView(s.name(), s.cron(), s.timeZone(), s.policy(), s.runsKept(), s.suspended(),
                    s.createdBy(), s.createdAt(), next, ((com.fasterxml.jackson.databind.node.ObjectNode)
                            JSON.readTree(s.form())).without("name"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    ScheduleRecord find(String namespace, String name) {
        return schedules.get(namespace, name).await().indefinitely().orElseThrow(() -> notFound(namespace, name));
    }

    static ApiException notFound(String namespace, String name) {
        return ApiException.notFound("no Spark schedule '" + name + "' in namespace '" + namespace + "'");
    }

    private GenericKubernetesResource object(JobPlan plan, ScheduleRecord r) {
        return ScheduledApplications.of(plan, r.cron(), r.timeZone(), r.policy(), r.runsKept(), r.suspended(),
                settings, service.name());
    }

    private GenericKubernetesResource scheduled(String namespace, String name) {
        return kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(namespace).withName(name).get();
    }

    private void removeConfigMap(String namespace, String name, boolean had) {
        if (had) {
            kube.configMaps().inNamespace(namespace).withName(JobNames.configMap(name)).delete();
        }
    }

    private static LaunchForm read(String json) {
        try {
            return JSON.readValue(json, LaunchForm.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored form is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
