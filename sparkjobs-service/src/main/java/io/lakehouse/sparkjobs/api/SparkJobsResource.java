package io.lakehouse.sparkjobs.api;

import io.lakehouse.common.api.Paging;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import io.lakehouse.sparkjobs.store.JobRecord;
import io.lakehouse.sparkjobs.store.JobStore;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;

/** {@code /api/v1/namespaces/{ns}/spark-jobs}: launch and follow batch Spark jobs. */
@Path("/api/v1/namespaces/{namespace}/spark-jobs")
@Produces(MediaType.APPLICATION_JSON)
public class SparkJobsResource {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final JobService service;
    private final JobLifecycle lifecycle;
    private final JobLogs logs;
    private final JobStore store;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;
    private final SparkJobSettings settings;

    SparkJobsResource(JobService service, JobLifecycle lifecycle, JobLogs logs, JobStore store, Authorizer authorizer,
            SecurityIdentity caller, SparkJobSettings settings) {
        this.settings = settings;
        this.service = service;
        this.lifecycle = lifecycle;
        this.logs = logs;
        this.store = store;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response launch(@PathParam("namespace") String namespace, LaunchForm form) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        JobRecord job = service.launch(namespace, form, caller.getPrincipal().getName(), null);
        return Response.created(URI.create("/api/v1/namespaces/" + namespace + "/spark-jobs/" + job.name()))
                .entity(JobView.of(job)).build();
    }

    /** Newest first; {@code ?state=} and {@code ?schedule=} filter, {@code ?limit=&continue=} page. */
    @GET
    public JobPage list(@PathParam("namespace") String namespace, @QueryParam("state") String state,
            @QueryParam("schedule") String schedule, @QueryParam("limit") Integer limit,
            @QueryParam("continue") String continueToken) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        int size = Paging.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        String after = Paging.after(continueToken);
        OffsetDateTime afterTime = null;
        String afterName = null;
        if (after != null) {
            int bar = after.indexOf('|');
            try {
                afterTime = OffsetDateTime.parse(after.substring(0, bar));
                afterName = after.substring(bar + 1);
            } catch (RuntimeException e) {
                throw ApiException.badRequest("the continue token is not valid");
            }
        }
        List<JobRecord> found = store.list(namespace, state, schedule, afterTime, afterName, size + 1)
                .await().indefinitely();
        List<JobView> items = found.stream().limit(size)
                .map(j -> JobView.of(j, settings.operatorAnswerTimeout())).toList();
        String next = null;
        if (found.size() > size) {
            JobRecord last = found.get(size - 1);
            next = Paging.token(last.createdAt() + "|" + last.name());
        }
        return new JobPage(items, next);
    }

    /** The job with its driver and executor pods. */
    @GET
    @Path("{name}")
    public JobDetail get(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        JobView job = store.get(namespace, PathParams.job(namespace, name)).await().indefinitely()
                .map(j -> JobView.of(j, settings.operatorAnswerTimeout()))
                .orElseThrow(() -> JobService.notFound(namespace, name));
        return new JobDetail(job, logs.pods(namespace, name));
    }

    /**
     * The driver's last {@code tail} lines (default 100): from its pod while it exists, else as kept when
     * the job ended. {@code ?follow=true} streams them as server-sent events until the driver ends.
     */
    @GET
    @Path("{name}/logs")
    @Produces({MediaType.APPLICATION_JSON, MediaType.SERVER_SENT_EVENTS})
    public Response logs(@PathParam("namespace") String namespace, @PathParam("name") String name,
            @QueryParam("tail") Integer tail, @QueryParam("follow") boolean follow) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        PathParams.job(namespace, name);
        int lines = Paging.limit(tail, JobLogs.DEFAULT_TAIL, JobLogs.MAX_TAIL);
        if (store.get(namespace, name).await().indefinitely().isEmpty()) {
            throw JobService.notFound(namespace, name);
        }
        if (follow) {
            return Response.ok(logs.follow(namespace, name, lines), MediaType.SERVER_SENT_EVENTS).build();
        }
        return Response.ok(logs.tail(namespace, name, lines), MediaType.APPLICATION_JSON).build();
    }

    /** A new job from this one's form (profile resolved again); a body changes the fields it gives. */
    @POST
    @Path("{name}/relaunch")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response relaunch(@PathParam("namespace") String namespace, @PathParam("name") String name,
            LaunchForm changes) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        JobRecord job = lifecycle.relaunch(namespace, PathParams.job(namespace, name), changes,
                caller.getPrincipal().getName());
        return Response.created(URI.create("/api/v1/namespaces/" + namespace + "/spark-jobs/" + job.name()))
                .entity(JobView.of(job)).build();
    }

    @POST
    @Path("{name}/cancel")
    public JobView cancel(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        return JobView.of(lifecycle.cancel(namespace, PathParams.job(namespace, name)));
    }

    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        lifecycle.delete(namespace, PathParams.job(namespace, name));
        return Response.noContent().build();
    }
}
