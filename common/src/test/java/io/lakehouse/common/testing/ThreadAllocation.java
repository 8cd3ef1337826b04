package io.lakehouse.common.testing;

import java.lang.management.ManagementFactory;

/** Heap bytes the calling thread allocates per call of an action: what a hot path costs, whatever the machine's load. */
public final class ThreadAllocation {

    private ThreadAllocation() {}

    /** Heap bytes the calling thread allocates in one call of {@code action} (warm it up first). */
    public static long once(Runnable action) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        action.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /** Runs {@code rounds} calls three times (the first two warm the JIT up) and gives the last round's bytes per call. */
    public static long perCall(int rounds, Runnable action) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0;
        for (int warm = 0; warm < 3; warm++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < rounds; i++) {
                action.run();
            }
            bytes = (threads.getCurrentThreadAllocatedBytes() - before) / rounds;
        }
        return bytes;
    }
}
