package io.lakehouse.common.audit;

import io.lakehouse.common.problem.ApiException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Records every mutating {@code /api} call (POST, PUT, PATCH, DELETE) as an {@code audit.recorded}
 * event in the service's outbox, whatever the outcome, with no code per endpoint. The request id
 * ({@code X-Request-Id}, or a new UUID) is echoed back.
 *
 * <p>Write-ahead, so that the audit log loses nothing: the record is committed as an intent before
 * the call runs (if that fails the call is refused with 503 and nothing changes), and replaced by the
 * event with the outcome: in the change's own transaction when the resource method declares its success
 * status ({@link SuccessStatus}, {@link AuditedCall}: one commit less per successful call), else after the
 * answer. A replica that stops before the outcome is written leaves the intent, which {@link AuditIntents}
 * publishes without an outcome.
 */
public class AuditFilter {

    static final String REQUEST_ID = "X-Request-Id";
    private static final String CALL = AuditFilter.class.getName() + ".call";
    private static final Logger LOG = Logger.getLogger(AuditFilter.class);
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final AuditIntents intents;
    private final CurrentIdentityAssociation identity;

    AuditFilter(AuditIntents intents, CurrentIdentityAssociation identity) {
        this.intents = intents;
        this.identity = identity;
    }

    /** Before a matched call: its record, committed (the request id is fixed here). */
    @ServerRequestFilter
    public Uni<Void> begin(ContainerRequestContext request, ResourceInfo resource) {
        if (!audited(request)) {
            return Uni.createFrom().voidItem();
        }
        String requestId = requestId(request.getHeaderString(REQUEST_ID));
        request.getHeaders().putSingle(REQUEST_ID, requestId);
        AuditedCall call = intents.call();
        request.setProperty(CALL, call);
        SuccessStatus success = resource == null || resource.getResourceMethod() == null ? null
                : resource.getResourceMethod().getAnnotation(SuccessStatus.class);
        return caller().chain(who -> {
                    AuditRecord intent = record(request, resource, null, requestId, who);
                    AuditRecord onSuccess = success == null ? null : intent.withOutcome(success.value());
                    return intents.begin(intent).invoke(id -> call.intentWritten(id, onSuccess));
                })
                .onFailure().transform(e -> {
                    LOG.errorf("audit intent of %s %s not written, call refused: %s", request.getMethod(),
                            request.getUriInfo().getPath(), e.getMessage());
                    return ApiException.unavailable("the audit log cannot record this call now; nothing was changed");
                })
                .replaceWithVoid();
    }

    /**
     * After every call (also the unmatched ones, which change nothing): the outcome replaces the intent, unless the
     * change's transaction wrote it already ({@link AuditedCall}). A call that answered otherwise after its change and
     * outcome committed (a failure while answering) is recorded once more, with what the caller got.
     */
    @ServerResponseFilter
    public Uni<Void> record(ContainerRequestContext request, ContainerResponseContext response, ResourceInfo resource) {
        if (!audited(request)) {
            return Uni.createFrom().voidItem();
        }
        String requestId = requestId(request.getHeaderString(REQUEST_ID));
        response.getHeaders().putSingle(REQUEST_ID, requestId);
        AuditedCall call = (AuditedCall) request.getProperty(CALL);
        if (call != null && call.answeredAsRecorded(response.getStatus())) {
            return Uni.createFrom().voidItem();
        }
        UUID intent = call == null || call.recorded() ? null : call.intent();
        return caller()
                .chain(who -> intents.complete(intent, record(request, resource, response.getStatus(), requestId, who)))
                .onFailure().recoverWithItem(e -> {
                    LOG.errorf("audit outcome of %s %s not recorded (%s): %s", request.getMethod(),
                            request.getUriInfo().getPath(), intent != null ? "its intent is published without it"
                                    : call != null && call.recorded() ? "recorded with its change's status only"
                                    : "lost", e.getMessage());
                    return null;
                });
    }

    private static boolean audited(ContainerRequestContext request) {
        return MUTATING.contains(request.getMethod()) && request.getUriInfo().getPath().startsWith("/api/");
    }

    /**
     * The caller's name, null when anonymous or unresolved. Deferred: on a failed request's path the
     * response filter runs on the IO thread before the (lazy) identity is resolved, where reading the
     * injected SecurityIdentity throws BlockingOperationNotAllowedException and turned the answer into a 500.
     */
    private Uni<String> caller() {
        return identity.getDeferredIdentity()
                .map(who -> who.isAnonymous() ? null : who.getPrincipal().getName())
                .onFailure().recoverWithNull();
    }

    private static AuditRecord record(ContainerRequestContext request, ResourceInfo resource, Integer outcome,
            String requestId, String caller) {
        String path = request.getUriInfo().getPath();
        return new AuditRecord(caller,
                request.getMethod() + " " + template(resource, path),
                request.getUriInfo().getPathParameters().getFirst("namespace"), path, outcome, requestId);
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
        // A parameter pinned to one value ({kind: iceberg-catalog}, a service with one kind) reads as
        // that value; {subject: .+} (a subject may hold '/') reads as {subject}: that regex is routing.
        return template.replaceAll("\\{\\s*\\w+\\s*:\\s*([A-Za-z0-9-]+)\\s*}", "$1")
                .replaceAll("\\{\\s*(\\w+)\\s*:[^}]*}", "{$1}");
    }
}
