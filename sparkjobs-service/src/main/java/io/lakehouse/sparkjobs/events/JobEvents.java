package io.lakehouse.sparkjobs.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.sparkjobs.store.JobRecord;
import io.lakehouse.sparkjobs.store.ScheduleRecord;
import jakarta.enterprise.context.ApplicationScoped;

/** The {@code sparkjob.*} events (subject {@code <namespace>/sparkjob/<name>}); never a credential or script text. */
@ApplicationScoped
public class JobEvents {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceSettings service;

    JobEvents(ServiceSettings service) {
        this.service = service;
    }

    public LakehouseEvent submitted(JobRecord job) {
        return event(EventType.SPARKJOB_SUBMITTED, job);
    }

    public LakehouseEvent stateChanged(JobRecord job) {
        return event(EventType.SPARKJOB_STATE_CHANGED, job);
    }

    public LakehouseEvent deleted(JobRecord job) {
        return event(EventType.SPARKJOB_DELETED, job);
    }

    /** {@code sparkschedule.created/updated/deleted}: the timing, never the form's script. */
    public LakehouseEvent schedule(EventType type, ScheduleRecord s) {
        ObjectNode data = JSON.createObjectNode()
                .put("namespace", s.namespace())
                .put("name", s.name())
                .put("cron", s.cron())
                .put("timeZone", s.timeZone())
                .put("concurrencyPolicy", s.policy())
                .put("runsKept", s.runsKept())
                .put("suspended", s.suspended())
                .put("createdBy", s.createdBy());
        return LakehouseEvent.of(service.eventSource(), type, s.namespace() + "/sparkschedule/" + s.name(), data);
    }

    private LakehouseEvent event(EventType type, JobRecord job) {
        ObjectNode data = JSON.createObjectNode()
                .put("namespace", job.namespace())
                .put("name", job.name())
                .put("state", job.state())
                .put("sourceType", job.sourceType())
                .put("profile", job.profile())
                .put("schedule", job.schedule())
                .put("createdBy", job.createdBy())
                .put("handMade", job.handMade());
        return LakehouseEvent.of(service.eventSource(), type, job.namespace() + "/sparkjob/" + job.name(), data);
    }
}
