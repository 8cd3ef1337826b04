package io.lakehouse.common.metrics;

import java.util.Locale;

/**
 * The exposition format a scrape of {@code /q/metrics} gets. Left to Quarkus, any Accept header without
 * {@code text/plain} (none, {@code *}{@code /*}: curl, simple scrapers) gets OpenMetrics, whose counters
 * carry exemplars ({@code # {span_id=…,trace_id=…} 1.0 <time>}) once OpenTelemetry is present, which
 * parsers of the 0.0.4 text format choke on; while Prometheus, whose Accept also lists {@code text/plain}
 * (with a lower weight), gets the text format and never an exemplar. Here OpenMetrics goes only to a
 * client that ranks it above the text format (Prometheus does), the text format to every other.
 */
final class MetricsFormat {

    static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private MetricsFormat() {}

    /** The media type to answer an {@code Accept} header (null when none) with: {@link #OPEN_METRICS} or {@link #TEXT}. */
    static String of(String accept) {
        if (accept == null) {
            return TEXT;
        }
        double openMetrics = 0;
        double text = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            double q = weight(parts);
            if (type.equals("application/openmetrics-text")) {
                openMetrics = Math.max(openMetrics, q);
            } else if (type.equals("text/plain") || type.equals("text/*") || type.equals("*/*")) {
                text = Math.max(text, q);
            }
        }
        return openMetrics > text ? OPEN_METRICS : TEXT;
    }

    /** The {@code q} parameter of a media range: 1 when absent, 0 when unreadable. */
    private static double weight(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].trim();
            if (param.startsWith("q=")) {
                try {
                    return Double.parseDouble(param.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
