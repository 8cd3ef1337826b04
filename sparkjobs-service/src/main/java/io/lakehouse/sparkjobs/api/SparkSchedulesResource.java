package io.lakehouse.sparkjobs.api;

import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.validation.Names;
import io.lakehouse.sparkjobs.domain.ScheduleForm;
import io.lakehouse.sparkjobs.domain.SchedulePatch;
import io.lakehouse.sparkjobs.store.JobRecord;
import io.lakehouse.sparkjobs.store.ScheduleRecord;
import io.lakehouse.sparkjobs.store.ScheduleStore;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;

/**
 * {@code /api/v1/namespaces/{ns}/spark-schedules}: viewers read, admins manage, operators run one now
 * (a launch like any other).
 */
@Path("/api/v1/namespaces/{namespace}/spark-schedules")
@Produces(MediaType.APPLICATION_JSON)
public class SparkSchedulesResource {

    private final ScheduleService service;
    private final ScheduleStore store;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;

    SparkSchedulesResource(ScheduleService service, ScheduleStore store, Authorizer authorizer,
            SecurityIdentity caller) {
        this.service = service;
        this.store = store;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @GET
    public List<ScheduleView> list(@PathParam("namespace") String namespace) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        return store.list(namespace).await().indefinitely().stream().map(service::view).toList();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("namespace") String namespace, ScheduleForm form) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        ScheduleRecord created = service.create(namespace, form, caller.getPrincipal().getName());
        return Response.created(URI.create("/api/v1/namespaces/" + namespace + "/spark-schedules/" + created.name()))
                .entity(service.view(created)).build();
    }

    @GET
    @Path("{name}")
    public ScheduleView get(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        return service.view(service.find(namespace, schedule(namespace, name)));
    }

    @PATCH
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ScheduleView patch(@PathParam("namespace") String namespace, @PathParam("name") String name,
            SchedulePatch patch) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        return service.view(service.update(namespace, schedule(namespace, name), patch, null));
    }

    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        service.delete(namespace, schedule(namespace, name));
        return Response.noContent().build();
    }

    @POST
    @Path("{name}/run")
    public Response runNow(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        JobRecord job = service.runNow(namespace, schedule(namespace, name), caller.getPrincipal().getName());
        return Response.created(URI.create("/api/v1/namespaces/" + namespace + "/spark-jobs/" + job.name()))
                .entity(JobView.of(job)).build();
    }

    @POST
    @Path("{name}/suspend")
    public ScheduleView suspend(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        return service.view(service.update(namespace, schedule(namespace, name),
                new SchedulePatch(null, null, null, null), true));
    }

    @POST
    @Path("{name}/resume")
    public ScheduleView resume(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        return service.view(service.update(namespace, schedule(namespace, name),
                new SchedulePatch(null, null, null, null), false));
    }

    private static String schedule(String namespace, String name) {
        if (!Names.isDns1123Label(name)) {
            throw ScheduleService.notFound(namespace, name);
        }
        return name;
    }
}
