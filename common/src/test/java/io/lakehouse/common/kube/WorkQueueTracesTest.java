package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pass continues the trace of what asked for it: the request or event whose span came with the key
 * is the parent of the pass's span; several that asked while the key waited make one pass, linked to
 * each; a pass nothing traced asked for starts a trace of its own.
 */
class WorkQueueTracesTest {

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider tracing =
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    private WorkQueue queue;

    @AfterEach
    void close() {
        if (queue != null) {
            queue.close();
        }
        tracing.close();
    }

    @Test
    void aPassIsAChildOfTheSpanThatQueuedItsKey() {
        SpanContext request = remote();
        start(key -> null).add("ns/a", request);

        SpanData pass = awaitPasses("ns/a", 1).get(0);
        assertThat(pass.getTraceId()).isEqualTo(request.getTraceId());
        assertThat(pass.getParentSpanId()).isEqualTo(request.getSpanId());
        assertThat(pass.getName()).isEqualTo("test pass");
        assertThat(pass.getLinks()).isEmpty();
    }

    @Test
    void triggersThatArriveWhileTheKeyWaitsMakeOnePassLinkedToEach() {
        CountDownLatch blocking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(key -> {
            if (key.equals("ns/blocker")) {
                blocking.countDown();
                awaitLatch(release);
            }
            return null;
        });
        queue.add("ns/blocker");
        awaitLatch(blocking);
        SpanContext first = remote();
        SpanContext second = remote();
        SpanContext third = remote();
        queue.add("ns/a", first);
        queue.add("ns/a", second);
        queue.add("ns/a");
        queue.add("ns/a", third);
        queue.add("ns/a", second);
        release.countDown();

        SpanData pass = awaitPasses("ns/a", 1).get(0);
        assertThat(pass.getTraceId()).as("the first trigger's trace").isEqualTo(first.getTraceId());
        assertThat(pass.getParentSpanId()).isEqualTo(first.getSpanId());
        assertThat(pass.getLinks()).extracting(LinkData::getSpanContext).containsExactly(second, third);
        await().during(Duration.ofMillis(300)).until(() -> passes("ns/a").size() == 1);
    }

    @Test
    void aTriggerArrivingDuringAPassGoesWithTheNextOne() {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(key -> {
            if (running.getCount() > 0) {
                running.countDown();
                awaitLatch(release);
            }
            return null;
        });
        SpanContext before = remote();
        SpanContext during = remote();
        queue.add("ns/a", before);
        awaitLatch(running);
        queue.add("ns/a", during);
        release.countDown();

        List<SpanData> passes = awaitPasses("ns/a", 2);
        assertThat(passes).extracting(SpanData::getTraceId).containsExactly(before.getTraceId(), during.getTraceId());
    }

    @Test
    void aPassNothingTracedAskedForStartsATraceOfItsOwnAndAFailureMarksIt() {
        start(key -> {
            throw new IllegalStateException("API server down");
        }).add("ns/a");

        SpanData pass = awaitPasses("ns/a", 1).get(0);
        assertThat(pass.getParentSpanContext().isValid()).isFalse();
        assertThat(pass.getStatus().getDescription()).isEqualTo("API server down");
        assertThat(pass.getEvents()).extracting(e -> e.getName()).contains("exception");
    }

    private WorkQueue start(Function<String, Duration> handler) {
        queue = new WorkQueue("test", 1, handler, tracing.get("test"));
        return queue;
    }

    private List<SpanData> awaitPasses(String key, int count) {
        await().until(() -> passes(key).size() >= count);
        return passes(key);
    }

    private List<SpanData> passes(String key) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> key.equals(s.getAttributes().get(AttributeKey.stringKey(ReconcileSpan.KEY))))
                .toList();
    }

    /** A sampled span of another process (an API request, an event's producer). */
    private static SpanContext remote() {
        return SpanContext.createFromRemoteParent(hex(16), hex(8), TraceFlags.getSampled(), TraceState.getDefault());
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1;
        return HexFormat.of().formatHex(b);
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
}
