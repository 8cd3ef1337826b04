package io.lakehouse.common.testing;

import static io.restassured.RestAssured.given;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * What a service spends on reads, measured in the test's own JVM (a {@code @QuarkusTest} serves from it): heap
 * bytes allocated and CPU time of every thread but the caller's (whose HTTP client is not the service's), per
 * read. Background threads (reconcile loop, Kafka pollers) count too: small beside hundreds of reads.
 */
public final class ReadCost {

    public record Figures(long reads, long bytesPerRead, double cpuMsPerRead) {
        @Override
        public String toString() {
            return String.format("%d reads, %d bytes and %.3f ms of CPU per read", reads, bytesPerRead, cpuMsPerRead);
        }
    }

    /**
     * The same reads with a new token each (each one verified, as every read was before tokens were remembered),
     * then with one token.
     */
    public record ByToken(Figures newTokens, Figures sameToken) {}

    private ReadCost() {}

    /** GETs of {@code paths} in turn as a platform admin, {@code reads} with a new token each, then with one token. */
    public static ByToken byToken(int reads, List<String> paths) {
        Figures newTokens = measure(reads, i -> Callers.asAdmin().get(paths.get(i % paths.size())).then()
                .statusCode(200));
        String token = Callers.token("root-admin", Callers.ADMIN_GROUP);
        Figures sameToken = measure(reads, i -> given().auth().oauth2(token).get(paths.get(i % paths.size())).then()
                .statusCode(200));
        return new ByToken(newTokens, sameToken);
    }

    /** Runs {@code reads} (a quarter of them first, unmeasured, for the JIT), then the measured ones. */
    public static Figures measure(int reads, IntConsumer read) {
        for (int i = 0; i < reads / 4; i++) {
            read.accept(i);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        long[] ids = Arrays.stream(threads.getAllThreadIds()).filter(id -> id != self).toArray();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long[] cpu = Arrays.stream(ids).map(threads::getThreadCpuTime).toArray();
        for (int i = 0; i < reads; i++) {
            read.accept(i);
        }
        long[] bytesAfter = threads.getThreadAllocatedBytes(ids);
        long allocated = 0;
        long cpuNanos = 0;
        for (int i = 0; i < ids.length; i++) {
            // -1: the thread ended meanwhile (its work is lost to the figure, not counted negative).
            if (bytes[i] >= 0 && bytesAfter[i] >= 0) {
                allocated += bytesAfter[i] - bytes[i];
            }
            long cpuAfter = threads.getThreadCpuTime(ids[i]);
            if (cpu[i] >= 0 && cpuAfter >= 0) {
                cpuNanos += cpuAfter - cpu[i];
            }
        }
        return new Figures(reads, allocated / reads, cpuNanos / 1e6 / reads);
    }
}
