package io.lakehouse.engines.reconcile;

import java.util.Map;

/** Renders {@code key=value} configuration files in the order given (stable output, stable checksums). */
public final class PropertiesFiles {

    private PropertiesFiles() {}

    public static String render(Map<String, String> properties) {
        StringBuilder out = new StringBuilder();
        properties.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    /** One entry per line, e.g. a {@code jvm.config}. */
    public static String lines(Iterable<String> lines) {
        StringBuilder out = new StringBuilder();
        lines.forEach(line -> out.append(line).append('\n'));
        return out.toString();
    }
}
