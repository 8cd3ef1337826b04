package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SideBySideTest {

    @Test
    void theCallsRunAtTheSameTime() {
        // Each call returns only once all four have started: one after the other, the first would time out.
        CountDownLatch started = new CountDownLatch(4);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        List<Runnable> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            calls.add(() -> {
                threads.add(Thread.currentThread().getName());
                started.countDown();
                await(started);
            });
        }

        SideBySide.run(calls);

        assertThat(started.getCount()).isZero();
        assertThat(threads).hasSize(4).contains(Thread.currentThread().getName());
    }

    @Test
    void theCallsTheCallerDoesNotRunItselfRunBelowThePriorityOfTheApi() {
        Thread caller = Thread.currentThread();
        Set<Integer> priorities = ConcurrentHashMap.newKeySet();
        CountDownLatch started = new CountDownLatch(3);
        List<Runnable> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(() -> {
                if (Thread.currentThread() != caller) {
                    priorities.add(Thread.currentThread().getPriority());
                }
                started.countDown();
                await(started);
            });
        }

        SideBySide.run(calls);

        assertThat(priorities).containsOnly(Thread.MIN_PRIORITY);
    }

    @Test
    void returnsOnlyWhenEveryCallEndedEvenAfterAFailure() {
        AtomicBoolean slowDone = new AtomicBoolean();

        assertThatThrownBy(() -> SideBySide.run(List.of(
                () -> {
                    throw new IllegalStateException("first");
                },
                () -> {
                    sleep(300);
                    slowDone.set(true);
                })))
                .isInstanceOf(IllegalStateException.class).hasMessage("first");
        assertThat(slowDone).isTrue();
    }

    @Test
    void throwsTheFirstFailureInTheListsOrderAsRaisedWithTheOthersSuppressed() {
        ForeignObjectException foreign = new ForeignObjectException(new DeploymentBuilder()
                .withNewMetadata().withNamespace("n").withName("x").endMetadata().build());

        assertThatThrownBy(() -> SideBySide.run(List.of(
                () -> {},
                () -> {
                    sleep(100); // fails after the third: the order of the list decides, not the clock
                    throw foreign;
                },
                () -> {
                    throw new IllegalArgumentException("third");
                })))
                .isSameAs(foreign)
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .isInstanceOf(IllegalArgumentException.class));
    }

    @Test
    void theCallsSeeTheCallersTracingContext() {
        ContextKey<String> pass = ContextKey.named("pass");
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<Runnable> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(() -> seen.add(String.valueOf(Context.current().get(pass))));
        }

        try (Scope ignored = Context.root().with(pass, "ns/catalog-1").makeCurrent()) {
            SideBySide.run(calls);
        }

        assertThat(seen).containsExactly("ns/catalog-1");
    }

    @Test
    void manyCallsAtOnceUseAtMostEightThreadsAndTheCaller() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<Runnable> calls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            calls.add(() -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                sleep(50);
                running.decrementAndGet();
                done.incrementAndGet();
            });
        }

        SideBySide.run(calls);

        assertThat(done).hasValue(30);
        assertThat(most.get()).isBetween(2, 9);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(5, TimeUnit.SECONDS)) {
                throw new AssertionError("the calls did not run side by side");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
