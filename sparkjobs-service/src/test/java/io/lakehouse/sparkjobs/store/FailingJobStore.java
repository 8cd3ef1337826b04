package io.lakehouse.sparkjobs.store;

import io.lakehouse.sparkjobs.kube.ApplicationStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.Optional;

/** The real store on the real database, except that every state update of one job fails (a broken row). */
public class FailingJobStore extends JobStore {

    private final String failing;

    public FailingJobStore(Pool pool, String failing) {
        super(pool);
        this.failing = failing;
    }

    @Override
    public Uni<Optional<JobRecord>> observe(SqlClient tx, ApplicationStatus s, String driverLog) {
        if (failing.equals(s.name())) {
            // A statement that fails on the server, so the transaction it is in is aborted like by a real fault.
            return tx.query("SELECT 1 / 0").execute().replaceWith(Optional.empty());
        }
        return super.observe(tx, s, driverLog);
    }
}
