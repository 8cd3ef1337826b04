package io.lakehouse.engines.store;

import io.lakehouse.common.events.IncomingEvents;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The groups access-service last saw in each user's token (tables {@code user_sightings} and
 * {@code user_groups_seen}): the only source of group members Trino can be given, since it reads no
 * groups from tokens. A change of a user's groups wakes the instances granted to those groups (trigger). A pass
 * reads the members of its granted groups with its row ({@code PassColumns.GRANTS_WITH_MEMBERS}).
 */
@ApplicationScoped
public class UserGroupsStore {

    /** The consumers' connections: {@link #record} runs in the sightings' consumer. */
    private final Pool events;

    UserGroupsStore(@ReactiveDataSource(IncomingEvents.POOL) Pool events) {
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
}
