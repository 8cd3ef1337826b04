package io.lakehouse.sparkjobs.store;

import io.lakehouse.sparkjobs.kube.ApplicationStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** The real store on the real database, counting the state updates the tracker sends (one transaction each). */
public class CountingJobStore extends JobStore {

    private final AtomicInteger updates = new AtomicInteger();

    public CountingJobStore(Pool pool) {
        super(pool);
    }

    @Override
    public Uni<Optional<JobRecord>> observe(SqlClient tx, ApplicationStatus s, String driverLog) {
        updates.incrementAndGet();
        return super.observe(tx, s, driverLog);
    }

    public int updates() {
        return updates.get();
    }
}
