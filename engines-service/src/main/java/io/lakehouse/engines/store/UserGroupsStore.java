package io.lakehouse.engines.store;

import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.instances.Granted;
import io.lakehouse.common.security.Subject;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The groups access-service last saw in each user's token (tables {@code user_sightings} and
 * {@code user_groups_seen}): the only source of group members Trino can be given, since it reads no
 * groups from tokens. A change of a user's groups wakes the instances granted to those groups (trigger). A pass
 * reads the instance's grants here with the members of its granted groups ({@link #granted}).
 */
@ApplicationScoped
public class UserGroupsStore {

    private final Pool pool;
    /** The consumers' connections: {@link #record} runs in the sightings' consumer. */
    private final Pool events;

    UserGroupsStore(Pool pool, @ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.pool = pool;
        this.events = events;
    }

    /**
     * Replaces the user's groups with those of a sighting, unless a sighting of a later token is already
     * stored (an older event, replayed or late, changes nothing; {@code iat} has whole seconds, so of two
     * tokens of the same second the later event wins): idempotent, so no inbox is needed.
     */
    public Uni<Void> record(String username, List<String> groups, Instant seenAt) {
        String[] paths = groups.toArray(String[]::new);
        return events.withTransaction(tx -> tx.preparedQuery("INSERT INTO user_sightings (username, seen_at)"
                        + " VALUES ($1, $2) ON CONFLICT (username) DO UPDATE SET seen_at = EXCLUDED.seen_at"
                        + " WHERE user_sightings.seen_at <= EXCLUDED.seen_at RETURNING username")
                .execute(Tuple.of(username, OffsetDateTime.ofInstant(seenAt, ZoneOffset.UTC)))
                .chain(newer -> newer.size() == 0 ? Uni.createFrom().voidItem()
                        : tx.preparedQuery("DELETE FROM user_groups_seen WHERE username = $1"
                                        + " AND NOT (group_path = ANY($2))")
                                .execute(Tuple.of(username, paths))
                                .chain(() -> tx.preparedQuery("INSERT INTO user_groups_seen (username, group_path)"
                                                + " SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING")
                                        .execute(Tuple.of(username, paths)))
                                .replaceWithVoid()));
    }

    /**
     * The instance's grants (users first, each type by name, as {@link io.lakehouse.common.instances.GrantStore#of}
     * reads them) and the users seen in each granted group (by group, then user), in one statement: a pass reads both.
     */
    public Uni<Granted> granted(String namespace, String name) {
        return pool.preparedQuery("SELECT g.subject_type, g.subject, u.username FROM instance_grants g"
                        + " LEFT JOIN user_groups_seen u ON g.subject_type = 'group' AND u.group_path = g.subject"
                        + " WHERE g.namespace = $1 AND g.name = $2 ORDER BY g.subject_type DESC, g.subject, u.username")
                .execute(Tuple.of(namespace, name))
                .map(rows -> {
                    List<Subject> subjects = new ArrayList<>();
                    Map<String, List<String>> members = new LinkedHashMap<>();
                    for (Row row : rows) {
                        Subject subject = new Subject(Subject.Type.fromWireName(row.getString(0)), row.getString(1));
                        if (subjects.isEmpty() || !subjects.get(subjects.size() - 1).equals(subject)) {
                            subjects.add(subject); // a group's rows come together, one per member seen
                        }
                        String member = row.getString(2);
                        if (member != null) {
                            members.computeIfAbsent(subject.name(), g -> new ArrayList<>()).add(member);
                        }
                    }
                    return new Granted(subjects, members);
                });
    }
}
