package io.lakehouse.common.audit;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Records every mutating {@code /api} call (POST, PUT, PATCH, DELETE) as an {@code audit.recorded}
 * event in the service's outbox, whatever the outcome, with no code per endpoint. The request id
 * ({@code X-Request-Id}, or a new UUID) is echoed back. Written in its own transaction after the
 * call: a failure to record is logged and never changes the answer.
 */
public class AuditFilter {

    static final String REQUEST_ID = "X-Request-Id";
    private static final Logger LOG = Logger.getLogger(AuditFilter.class);
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final Pool pool;
    private final SecurityIdentity caller;
    private final String source;

    AuditFilter(Pool pool, SecurityIdentity caller, ServiceSettings service) {
        this.pool = pool;
        this.caller = caller;
        this.source = service.eventSource();
    }

    @ServerResponseFilter
    public Uni<Void> record(ContainerRequestContext request, ContainerResponseContext response, ResourceInfo resource) {
        String path = request.getUriInfo().getPath();
        if (!MUTATING.contains(request.getMethod()) || !path.startsWith("/api/")) {
            return Uni.createFrom().voidItem();
        }
        String requestId = requestId(request.getHeaderString(REQUEST_ID));
        response.getHeaders().putSingle(REQUEST_ID, requestId);
        AuditRecord record = new AuditRecord(caller.isAnonymous() ? null : caller.getPrincipal().getName(),
                request.getMethod() + " " + template(resource, path),
                request.getUriInfo().getPathParameters().getFirst("namespace"), path, response.getStatus(), requestId);
        LakehouseEvent event = LakehouseEvent.of(source, EventType.AUDIT_RECORDED, record.subject(), record.toJson());
        return pool.withTransaction(tx -> Outbox.append(tx, event))
                .onFailure().recoverWithItem(e -> {
                    LOG.errorf("audit record of %s %s lost: %s", request.getMethod(), path, e.getMessage());
                    return null;
                });
    }

    /** A client's id when it looks like one (bounded, printable), else a new UUID. */
    private static String requestId(String given) {
        return given != null && given.matches("[A-Za-z0-9._:-]{1,128}") ? given : UUID.randomUUID().toString();
    }

    /** The matched resource's path template, or the raw path when nothing matched. */
    private static String template(ResourceInfo resource, String path) {
        Method method = resource == null ? null : resource.getResourceMethod();
        if (method == null) {
            return path;
        }
        Path type = resource.getResourceClass().getAnnotation(Path.class);
        Path sub = method.getAnnotation(Path.class);
        String base = type == null ? "" : type.value();
        String template = sub == null ? base : base.replaceAll("/$", "") + "/" + sub.value().replaceAll("^/", "");
        // {subject: .+} (a subject may hold '/') reads as {subject}: the regex is routing, not meaning.
        return template.replaceAll("\\{\\s*(\\w+)\\s*:[^}]*}", "{$1}");
    }
}
