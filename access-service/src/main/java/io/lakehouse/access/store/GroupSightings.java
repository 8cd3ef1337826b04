package io.lakehouse.access.store;

import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.common.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The groups seen in each user's newest token (table {@code user_groups_seen}), published as
 * {@code access.user-groups-seen} when they change: the members of a group as far as the platform can
 * know them, since Keycloak's membership reaches it only through tokens and Trino reads none. Tokens are
 * ordered by their issue time, so an older token still in use never undoes what a newer one said.
 * Called on every forward-auth request: a replica touches the database once per new token of a user,
 * and publishes only when the groups differ from the stored ones.
 */
@ApplicationScoped
public class GroupSightings {

    private static final Logger LOG = Logger.getLogger(GroupSightings.class);

    private final Pool pool;
    private final AccessEvents events;
    /** What this replica last recorded per user. */
    private final Map<String, Recorded> recorded = new ConcurrentHashMap<>();

    GroupSightings(Pool pool, AccessEvents events) {
        this.pool = pool;
        this.events = events;
    }

    /**
     * Records in the background that a token issued at {@code issuedAt} gave {@code user} these groups;
     * a failure is retried with the user's next request.
     */
    public void seen(String user, Collection<String> groups, Instant issuedAt) {
        List<String> sorted = groups.stream().distinct().sorted().toList();
        Recorded last = recorded.get(user);
        if (last != null && (last.issuedAt().isAfter(issuedAt)
                || last.issuedAt().equals(issuedAt) && last.groups().equals(sorted))) {
            return;
        }
        pool.withTransaction(tx -> record(tx, user, sorted, issuedAt)).subscribe().with(
                ignored -> recorded.put(user, new Recorded(issuedAt, sorted)),
                failure -> LOG.warnf("groups of %s not recorded, retried at the next request: %s", user,
                        failure.getMessage()));
    }

    /** {@code iat} has whole seconds: of two tokens issued in the same second, the later request wins. */
    private record Recorded(Instant issuedAt, List<String> groups) {}

    private Uni<Void> record(SqlConnection tx, String user, List<String> groups, Instant issuedAt) {
        OffsetDateTime at = OffsetDateTime.ofInstant(issuedAt, ZoneOffset.UTC);
        return tx.preparedQuery("SELECT groups, seen_at FROM user_groups_seen WHERE username = $1 FOR UPDATE")
                .execute(Tuple.of(user))
                .chain(rows -> {
                    Row row = rows.size() == 0 ? null : rows.iterator().next();
                    if (row != null && row.getOffsetDateTime("seen_at").toInstant().isAfter(issuedAt)) {
                        return Uni.createFrom().voidItem(); // a newer token has spoken already
                    }
                    boolean changed = row == null || !Arrays.asList(row.getArrayOfStrings("groups")).equals(groups);
                    return tx.preparedQuery("INSERT INTO user_groups_seen (username, groups, seen_at) VALUES ($1, $2, $3)"
                                    + " ON CONFLICT (username) DO UPDATE SET groups = EXCLUDED.groups,"
                                    + " seen_at = EXCLUDED.seen_at WHERE user_groups_seen.seen_at <= EXCLUDED.seen_at")
                            .execute(Tuple.of(user, groups.toArray(String[]::new), at))
                            .chain(() -> changed ? Outbox.append(tx, events.userGroupsSeen(user, groups, issuedAt))
                                    : Uni.createFrom().voidItem());
                });
    }
}
