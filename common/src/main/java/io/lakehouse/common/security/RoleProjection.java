package io.lakehouse.common.security;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.common.outbox.PgChannelListener;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Local projection of namespace memberships from {@code lakehouse.access} events: kept in this
 * service's schema (so it survives restarts) and in memory (so authorization costs no round trip).
 *
 * <p>One consumer group per service writes the table, so one replica applies each event; every
 * replica's memory follows the table instead: the {@code member_roles} trigger notifies channel
 * {@code roles_<schema>} at commit with the namespace, and each replica reloads that namespace (a
 * full reload after every (re)connection of the listener, when notifications may have been missed).
 * Reloads run one after the other on the listener's thread, so the last one reads the last commit.
 */
@ApplicationScoped
public class RoleProjection {

    private static final Logger LOG = Logger.getLogger(RoleProjection.class);
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FIRST_LOAD_TIMEOUT = Duration.ofSeconds(30);
    /** Notifications wake the listener at once; the timeout only paces the retry of a failed reload. */
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(5);
    private static final String SELECT = "SELECT namespace, subject_type, subject, role FROM member_roles";

    private final Pool pool;
    /** The consumers' connections: {@link #store} and {@link #remove} run in {@link MembershipEvents}. */
    private final Pool events;
    private final String channel;
    private final Map<String, Map<Subject, Role>> byNamespace = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> firstLoad = new CompletableFuture<>();
    private PgChannelListener listener;
    private volatile boolean reloadAll;

    RoleProjection(Pool pool, @ReactiveDataSource(IncomingEvents.POOL) Pool events, ServiceSettings service) {
        this.pool = pool;
        this.events = events;
        this.channel = "roles_" + service.schema();
    }

    /**
     * Follows the table from right after the schema's migrations: the listener's first connection loads it all on the
     * listener's thread while the rest of the service starts.
     */
    void start(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 1) StartupEvent event) {
        listener = new PgChannelListener(pool, channel, LISTEN_TIMEOUT, this::changed).start();
    }

    /** The HTTP server opens after the last StartupEvent observer: no request is authorized before the first load. */
    void awaitFirstLoad(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent event)
            throws InterruptedException, ExecutionException {
        try {
            firstLoad.get(FIRST_LOAD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the roles of " + channel + " were not loaded within " + FIRST_LOAD_TIMEOUT
                    + ": PostgreSQL unreachable?", e);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (listener != null) {
            listener.close();
        }
    }

    public Optional<Role> roleOf(String namespace, Subject subject) {
        return Optional.ofNullable(byNamespace.getOrDefault(namespace, Map.of()).get(subject));
    }

    /**
     * Stores a membership once per event ({@link Inbox#applyOnce}: inbox row and change in one statement); every
     * replica learns it at commit.
     */
    Uni<Void> store(UUID eventId, String consumer, String namespace, Subject subject, Role role, Instant at) {
        return Inbox.applyOnce(events, eventId, consumer,
                "INSERT INTO member_roles (namespace, subject_type, subject, role, updated_at)"
                        + " SELECT $4, $5, $6, $7, $8 FROM first ON CONFLICT (namespace, subject_type, subject)"
                        + " DO UPDATE SET role = EXCLUDED.role, updated_at = EXCLUDED.updated_at",
                namespace, subject.type().wireName(), subject.name(), role.wireName(), at.atOffset(ZoneOffset.UTC));
    }

    /** Removes a membership once per event, like {@link #store}. */
    Uni<Void> remove(UUID eventId, String consumer, String namespace, Subject subject) {
        return Inbox.applyOnce(events, eventId, consumer,
                "DELETE FROM member_roles WHERE namespace = $4 AND subject_type = $5 AND subject = $6"
                        + " AND EXISTS (SELECT FROM first)",
                namespace, subject.type().wireName(), subject.name());
    }

    /** The listener's callback: null after a (re)connection, namespaces otherwise (empty: a timeout). */
    private void changed(List<String> namespaces) {
        try {
            if (namespaces == null || reloadAll) {
                loadAll();
                reloadAll = false;
                firstLoad.complete(null);
            } else {
                namespaces.stream().distinct().forEach(this::load);
            }
        } catch (RuntimeException e) {
            // The notification is consumed: reload everything on the next wake (at most LISTEN_TIMEOUT).
            reloadAll = true;
            LOG.warnf("role projection reload failed, retrying: %s", e.getMessage());
        }
    }

    private void loadAll() {
        Map<String, Map<Subject, Role>> fresh = group(pool.query(SELECT).execute().await().atMost(QUERY_TIMEOUT));
        byNamespace.keySet().removeIf(ns -> !fresh.containsKey(ns));
        byNamespace.putAll(fresh);
    }

    private void load(String namespace) {
        Map<Subject, Role> members = group(pool.preparedQuery(SELECT + " WHERE namespace = $1")
                .execute(Tuple.of(namespace)).await().atMost(QUERY_TIMEOUT)).get(namespace);
        if (members == null) {
            byNamespace.remove(namespace);
        } else {
            byNamespace.put(namespace, members);
        }
    }

    /** Rows grouped by namespace; each namespace's map is replaced whole, never edited in place. */
    private static Map<String, Map<Subject, Role>> group(RowSet<Row> rows) {
        Map<String, Map<Subject, Role>> result = new ConcurrentHashMap<>();
        for (Row row : rows) {
            Subject subject = new Subject(Subject.Type.fromWireName(row.getString(1)), row.getString(2));
            result.computeIfAbsent(row.getString(0), ns -> new ConcurrentHashMap<>())
                    .put(subject, Role.fromWireName(row.getString(3)).orElseThrow());
        }
        return result;
    }
}
