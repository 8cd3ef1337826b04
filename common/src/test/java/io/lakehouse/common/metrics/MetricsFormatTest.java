package io.lakehouse.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsFormatTest {

    private static final String OM = MetricsFormat.OPEN_METRICS;
    private static final String TEXT = MetricsFormat.TEXT;

    @Test
    void openMetricsOnlyToClientsThatRankItAboveTheTextFormat() {
        Map<String, String> expected = new LinkedHashMap<>();
        // Prometheus 2 and 3 scrape headers: OpenMetrics first.
        expected.put("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1", OM);
        expected.put("application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
                + "application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,"
                + "text/plain;version=0.0.4;q=0.3,*/*;q=0.2", OM);
        expected.put("application/openmetrics-text", OM);
        // Everyone else: the text format, without exemplars.
        expected.put(null, TEXT);
        expected.put("", TEXT);
        expected.put("*/*", TEXT);
        expected.put("text/plain", TEXT);
        expected.put("text/html,application/xhtml+xml,*/*;q=0.8", TEXT);
        expected.put("text/plain;version=0.0.4;q=1,application/openmetrics-text;q=0.5", TEXT);
        expected.put("application/openmetrics-text;q=0.5,*/*;q=0.5", TEXT);
        expected.put("application/openmetrics-text;q=0", TEXT);
        expected.put("application/openmetrics-text;q=oops", TEXT);
        expected.put("application/json", TEXT);

        Map<String, String> actual = new LinkedHashMap<>();
        expected.keySet().forEach(accept -> actual.put(accept, MetricsFormat.of(accept)));
        assertThat(actual).isEqualTo(expected);
    }
}
