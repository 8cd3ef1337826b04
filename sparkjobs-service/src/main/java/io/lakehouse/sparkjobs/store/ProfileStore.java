package io.lakehouse.sparkjobs.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.sparkjobs.domain.JobProfile;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Optional;

/** The {@code profiles} table: the job profile of every spark-connect instance. */
@ApplicationScoped
public class ProfileStore {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Pool pool;

    ProfileStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> put(SqlClient tx, String namespace, String name, JsonNode profile, OffsetDateTime at) {
        return tx.preparedQuery("INSERT INTO profiles (namespace, name, profile, updated_at) VALUES ($1, $2, $3, $4)"
                        + " ON CONFLICT (namespace, name) DO UPDATE SET profile = excluded.profile,"
                        + " updated_at = excluded.updated_at WHERE profiles.updated_at <= excluded.updated_at")
                .execute(Tuple.of(namespace, name, new JsonObject(profile.toString()), at))
                .replaceWithVoid();
    }

    public Uni<Void> remove(SqlClient tx, String namespace, String name) {
        return tx.preparedQuery("DELETE FROM profiles WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name)).replaceWithVoid();
    }

    public Uni<Optional<JobProfile>> get(String namespace, String name) {
        return pool.preparedQuery("SELECT profile::text FROM profiles WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(parse(rows.iterator().next().getString(0))));
    }

    private static JobProfile parse(String json) {
        try {
            return JSON.readValue(json, JobProfile.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored profile is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
