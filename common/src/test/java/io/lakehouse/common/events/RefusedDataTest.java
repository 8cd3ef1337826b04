package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class RefusedDataTest {

    @Test
    void theDatabaseRefusingTheEventsDataIsNotWorthAnotherTry() {
        assertThat(RefusedData.isCause(pg("22021"))).as("NUL in text").isTrue();
        assertThat(RefusedData.isCause(new SQLException("bad uuid", "22P02"))).as("over JDBC").isTrue();
        assertThat(RefusedData.isCause(new CompletionException(new RuntimeException(pg("22003")))))
                .as("wrapped").isTrue();
    }

    @Test
    void failuresThatMayPassLaterAreTriedAgain() {
        assertThat(RefusedData.isCause(pg("42P01"))).as("table away").isFalse();
        assertThat(RefusedData.isCause(pg("57P01"))).as("admin shutdown").isFalse();
        assertThat(RefusedData.isCause(pg("40001"))).as("serialization").isFalse();
        assertThat(RefusedData.isCause(new SQLException("no state"))).isFalse();
        assertThat(RefusedData.isCause(new IllegalStateException("pool closed"))).isFalse();
    }

    private static PgException pg(String sqlState) {
        return new PgException("refused", "ERROR", sqlState, null);
    }
}
