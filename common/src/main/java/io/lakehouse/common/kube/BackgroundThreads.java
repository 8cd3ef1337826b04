package io.lakehouse.common.kube;

/**
 * The threads of reconcile work (passes, their side-by-side calls, retries' timers) yield the cores to the API and
 * the event consumers: daemons at {@link Thread#MIN_PRIORITY}, which the services' JVM options
 * ({@code -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10}, the higher Java priorities mapped to 0)
 * turn into nice 10. Under a burst of creates the API answers first and the passes catch up (docs/benchmarks.md
 * "Reconcile work below the API"); an idle core still runs them at full speed. Without those options the JVM
 * ignores thread priorities.
 */
final class BackgroundThreads {

    private BackgroundThreads() {}

    static Thread daemon(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
    }
}
