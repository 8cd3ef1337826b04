package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    private WorkQueue queue;

    private WorkQueue start(int workers, Function<String, Duration> handler) {
        queue = new WorkQueue("test", workers, handler);
        return queue;
    }

    @AfterEach
    void close() {
        if (queue != null) {
            queue.close();
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void aKeyAddedOnceIsProcessedOnce() {
        AtomicInteger runs = new AtomicInteger();
        start(2, key -> {
            runs.incrementAndGet();
            return null;
        }).add("ns/a");
        await().until(() -> runs.get() == 1 && queue.depth() == 0);
        await().during(Duration.ofMillis(300)).until(() -> runs.get() == 1);
    }

    @Test
    void passesRunBelowThePriorityOfTheApi() {
        // MIN_PRIORITY: nice 10 under the services' JVM options (JvmSettingsTest), so the API answers first.
        List<Integer> priorities = new CopyOnWriteArrayList<>();
        start(2, key -> {
            priorities.add(Thread.currentThread().getPriority());
            return null;
        });
        queue.add("ns/a");
        queue.add("ns/b");
        await().until(() -> priorities.size() == 2);
        assertThat(priorities).containsOnly(Thread.MIN_PRIORITY);
    }

    @Test
    void aKeyAdded100TimesWhileProcessedRunsExactlyOnceMoreAfterwards() {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(4, key -> {
            if (runs.incrementAndGet() == 1) {
                started.countDown();
                awaitLatch(release);
            }
            return null;
        });
        queue.add("ns/a");
        awaitLatch(started);
        for (int i = 0; i < 100; i++) {
            queue.add("ns/a");
        }
        assertThat(runs.get()).as("no second run while the first is processing").isEqualTo(1);
        release.countDown();
        await().until(() -> queue.depth() == 0);
        await().during(Duration.ofMillis(300)).until(() -> runs.get() == 2);
    }

    @Test
    void aKeyWaitingAlreadyIsNotQueuedTwice() {
        AtomicInteger runsOfB = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(1, key -> {
            if (key.equals("ns/blocker")) {
                started.countDown();
                awaitLatch(release);
            } else {
                runsOfB.incrementAndGet();
            }
            return null;
        });
        queue.add("ns/blocker");
        awaitLatch(started);
        for (int i = 0; i < 50; i++) {
            queue.add("ns/b");
        }
        assertThat(queue.depth()).as("blocker processing + b waiting once").isEqualTo(2);
        release.countDown();
        await().until(() -> queue.depth() == 0);
        await().during(Duration.ofMillis(300)).until(() -> runsOfB.get() == 1);
    }

    @Test
    void oneKeyIsNeverProcessedByTwoWorkersAtOnce() throws Exception {
        Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> maxInFlight = new ConcurrentHashMap<>();
        AtomicInteger runs = new AtomicInteger();
        start(8, key -> {
            int now = inFlight.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            maxInFlight.computeIfAbsent(key, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
            LockSupport.parkNanos(Duration.ofMillis(2).toNanos()); // some work, to widen the window
            inFlight.get(key).decrementAndGet();
            runs.incrementAndGet();
            return null;
        });
        List<Thread> producers = new CopyOnWriteArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread producer = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    queue.add("ns/a");
                    queue.add("ns/b" + (i % 3));
                    if (i % 25 == 0) {
                        LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
                    }
                }
            });
            producers.add(producer);
            producer.start();
        }
        for (Thread producer : producers) {
            producer.join(10_000);
        }
        await().until(() -> queue.depth() == 0);
        assertThat(runs.get()).isGreaterThan(1);
        assertThat(maxInFlight).allSatisfy((key, max) -> assertThat(max.get()).as(key).isEqualTo(1));
    }

    @Test
    void differentKeysAreProcessedInParallel() {
        CyclicBarrier bothRunning = new CyclicBarrier(2);
        AtomicInteger met = new AtomicInteger();
        start(2, key -> {
            try {
                bothRunning.await(10, TimeUnit.SECONDS);
                met.incrementAndGet();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return null;
        });
        queue.add("ns/a");
        queue.add("ns/b");
        await().until(() -> met.get() == 2);
    }

    @Test
    void aFailureIsRetriedWithGrowingBackoffUntilItSucceeds() {
        List<Long> attempts = new CopyOnWriteArrayList<>();
        start(1, key -> {
            attempts.add(System.nanoTime());
            if (attempts.size() <= 2) {
                throw new IllegalStateException("API server unavailable");
            }
            return null;
        });
        queue.add("ns/a");
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 3);
        long firstRetryMs = TimeUnit.NANOSECONDS.toMillis(attempts.get(1) - attempts.get(0));
        long secondRetryMs = TimeUnit.NANOSECONDS.toMillis(attempts.get(2) - attempts.get(1));
        assertThat(firstRetryMs).as("first backoff").isGreaterThanOrEqualTo(200);
        assertThat(secondRetryMs).as("second backoff doubles").isGreaterThanOrEqualTo(400);
        await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3)).until(() -> attempts.size() == 3);
    }

    @Test
    void aReturnedDelayLooksAtTheKeyAgainLater() {
        AtomicInteger runs = new AtomicInteger();
        start(1, key -> runs.incrementAndGet() == 1 ? Duration.ofMillis(100) : null);
        queue.add("ns/a");
        await().until(() -> runs.get() == 2);
        await().during(Duration.ofMillis(300)).until(() -> runs.get() == 2);
    }

    @Test
    void aLaterPassDecidesWhetherToLookAgain() {
        AtomicInteger runs = new AtomicInteger();
        start(1, key -> runs.incrementAndGet() == 1 ? Duration.ofMillis(300) : null);
        queue.add("ns/a");
        await().until(() -> runs.get() == 1 && queue.depth() == 0);
        queue.add("ns/a"); // e.g. the watch told the deletions the first pass made: this pass finds it done
        await().until(() -> runs.get() == 2);
        await().during(Duration.ofMillis(700)).until(() -> runs.get() == 2);
    }

    @Test
    void aRetryIsReplacedByTheBackoffOfALaterFailure() {
        List<Long> attempts = new CopyOnWriteArrayList<>();
        start(1, key -> {
            attempts.add(System.nanoTime());
            throw new IllegalStateException("not yet");
        });
        queue.add("ns/a");
        await().until(() -> attempts.size() == 1);
        queue.add("ns/a"); // fails again: its backoff (400 ms) replaces the first retry (200 ms)
        await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() >= 3);
        assertThat(Duration.ofNanos(attempts.get(2) - attempts.get(1))).as("one retry, the later failure's")
                .isGreaterThanOrEqualTo(Duration.ofMillis(350));
    }

    @Test
    void nothingRunsAfterClose() {
        AtomicInteger runs = new AtomicInteger();
        start(1, key -> {
            runs.incrementAndGet();
            return null;
        });
        queue.close();
        queue.add("ns/a");
        assertThat(queue.depth()).isZero();
        await().during(Duration.ofMillis(200)).until(() -> runs.get() == 0);
    }

    @Test
    void closeWaitsForThePassInFlightWithoutInterruptingIt() {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        start(1, key -> {
            started.countDown();
            try {
                release.await();
                finished.incrementAndGet();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
            return null;
        });
        queue.add("ns/a");
        awaitLatch(started);
        CompletableFuture<Void> closing = CompletableFuture.runAsync(queue::close);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !closing.isDone());
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(closing::isDone);
        assertThat(finished.get()).isEqualTo(1);
        assertThat(interrupted.get()).isZero();
    }

    /**
     * P7: an idle service's workers wake for nothing. They block until a key (or the close) arrives: parked without a
     * timeout, not polling the queue every 100 ms (four workers: 40 wake-ups a second in every idle service).
     */
    @Test
    void idleWorkersWaitWithoutTimeoutAndEndOnClose() {
        AtomicInteger runs = new AtomicInteger();
        queue = new WorkQueue("idle", 4, key -> {
            runs.incrementAndGet();
            return null;
        });
        queue.add("ns/a");
        await().until(() -> runs.get() == 1 && queue.depth() == 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> workers("idle").size() == 4
                && workers("idle").stream().allMatch(t -> t.getState() == Thread.State.WAITING));
        queue.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> workers("idle").isEmpty());
    }

    /**
     * A create right after a restart: the new leader's pass over every instance is in the background lane, and a key
     * something asked for (the API's NOTIFY, an event, a watch change) runs before the rest of it.
     */
    @Test
    void aKeyAskedForRunsBeforeTheBackgroundKeysStillWaiting() {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        start(1, key -> {
            order.add(key);
            if (key.equals("ns/r0")) {
                firstRunning.countDown();
                awaitLatch(release);
            }
            return null;
        });
        for (int i = 0; i < 100; i++) {
            queue.addInBackground("ns/r" + i);
        }
        awaitLatch(firstRunning);
        queue.add("ns/new");
        queue.add("ns/r50"); // waiting in the background already: asked for, it moves to the front lane
        release.countDown();
        await().until(() -> order.size() == 101 && queue.depth() == 0);
        assertThat(order.subList(0, 3)).containsExactly("ns/r0", "ns/new", "ns/r50");
        assertThat(order.subList(3, 101)).isSortedAccordingTo(
                Comparator.comparingInt(k -> Integer.parseInt(k.substring(4))));
    }

    @Test
    void aKeyAddedInBackgroundWhileWaitingInTheFrontLaneStaysThere() {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        start(1, key -> {
            order.add(key);
            if (key.equals("ns/busy")) {
                firstRunning.countDown();
                awaitLatch(release);
            }
            return null;
        }).add("ns/busy");
        awaitLatch(firstRunning);
        queue.addInBackground("ns/r1");
        queue.add("ns/a");
        queue.addInBackground("ns/a");
        release.countDown();
        await().until(() -> order.size() == 3 && queue.depth() == 0);
        assertThat(order).containsExactly("ns/busy", "ns/a", "ns/r1");
    }

    /** The live worker threads of the queue named {@code name} ({@code name-0}…), not its timer. */
    private static List<Thread> workers(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().matches(name + "-\\d+"))
                .toList();
    }
}
