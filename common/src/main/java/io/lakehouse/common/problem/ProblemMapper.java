package io.lakehouse.common.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.pgclient.PgException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one mapper from exceptions to problem responses. 4xx are logged quietly, 5xx loudly; no stack
 * trace or internal message ever reaches the client.
 */
public class ProblemMapper {

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);

    @ServerExceptionMapper
    public Response api(ApiException e) {
        if (e.status() >= 500) {
            LOG.warnf("%d %s: %s", e.status(), e.code(), e.getMessage());
        }
        return respond(Problem.of(e));
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return respond(Problem.of(400, "bad-request", "Malformed request", describe(e)));
    }

    /** More specific than Quarkus' built-in mapper for the same type, which gives no problem body. */
    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return respond(Problem.of(401, "unauthorized", "Unauthorized", "a valid bearer token is required"));
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return respond(Problem.of(401, "unauthorized", "Unauthorized", "a valid bearer token is required"));
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(Problem.of(403, "forbidden", "Forbidden", "not allowed"));
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            LOG.error("unexpected web error", e);
            return respond(Problem.of(500, "internal", "Internal error", "an unexpected error occurred"));
        }
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        return respond(Problem.of(status, "http-" + status, title, title));
    }

    @ServerExceptionMapper
    public Response database(PgException e) {
        LOG.errorf("database error %s: %s", e.getSqlState(), e.getErrorMessage());
        return respond(Problem.of(503, "unavailable", "Service unavailable", "the database is unavailable"));
    }

    @ServerExceptionMapper(priority = 10_000)
    public Response unexpected(Throwable e) {
        if (isConnectionFailure(e)) {
            LOG.errorf("database unreachable: %s", e.getMessage());
            return respond(Problem.of(503, "unavailable", "Service unavailable", "the database is unavailable"));
        }
        LOG.error("unexpected error", e);
        return respond(Problem.of(500, "internal", "Internal error", "an unexpected error occurred"));
    }

    private static boolean isConnectionFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof io.vertx.core.VertxException
                    && String.valueOf(t.getMessage()).contains("Connection")) {
                return true;
            }
        }
        return false;
    }

    private static String describe(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + path(u) + "'";
        }
        if (e instanceof InvalidFormatException f) {
            return "field '" + path(f) + "' has the wrong type or format";
        }
        if (e instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
            return "field '" + path(m) + "' has the wrong type";
        }
        return "the body is not valid JSON";
    }

    private static String path(MismatchedInputException e) {
        List<String> parts = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .toList();
        return parts.stream().collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static Response respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }
}
