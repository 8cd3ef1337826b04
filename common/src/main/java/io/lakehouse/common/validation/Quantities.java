package io.lakehouse.common.validation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes resource quantities ("2Gi", "500m", "1.5"), parsed strictly and compared by value. */
public final class Quantities {

    private static final Pattern QUANTITY = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$");
    private static final Map<String, BigDecimal> MULTIPLIERS = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("m", new BigDecimal("0.001")),
            Map.entry("k", BigDecimal.TEN.pow(3)),
            Map.entry("M", BigDecimal.TEN.pow(6)),
            Map.entry("G", BigDecimal.TEN.pow(9)),
            Map.entry("T", BigDecimal.TEN.pow(12)),
            Map.entry("P", BigDecimal.TEN.pow(15)),
            Map.entry("E", BigDecimal.TEN.pow(18)),
            Map.entry("Ki", BigDecimal.valueOf(2).pow(10)),
            Map.entry("Mi", BigDecimal.valueOf(2).pow(20)),
            Map.entry("Gi", BigDecimal.valueOf(2).pow(30)),
            Map.entry("Ti", BigDecimal.valueOf(2).pow(40)),
            Map.entry("Pi", BigDecimal.valueOf(2).pow(50)),
            Map.entry("Ei", BigDecimal.valueOf(2).pow(60)));

    private Quantities() {}

    /** The value in base units (bytes, or cores), or empty when the text is not a quantity. */
    public static Optional<BigDecimal> parse(String text) {
        if (text == null || text.length() > 32) {
            return Optional.empty();
        }
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        String suffix = m.group(2) == null ? "" : m.group(2);
        return Optional.of(new BigDecimal(m.group(1)).multiply(MULTIPLIERS.get(suffix)));
    }

    /** A volume can grow, never shrink (neither a PVC nor CloudNativePG can shrink one). */
    public static void checkGrowth(Violations v, String field, String before, String after) {
        Optional<BigDecimal> old = parse(before);
        Optional<BigDecimal> now = parse(after);
        if (old.isPresent() && now.isPresent() && now.get().compareTo(old.get()) < 0) {
            v.add(field, "cannot shrink from " + before + " to " + after);
        }
    }

    /** Validates a quantity against a minimum (and maximum); returns its value when valid. */
    public static Optional<BigDecimal> check(Violations v, String field, String text, String min, String max) {
        if (text == null) {
            v.add(field, "is required");
            return Optional.empty();
        }
        Optional<BigDecimal> value = parse(text);
        if (value.isEmpty()) {
            v.add(field, "'" + text + "' is not a Kubernetes quantity (e.g. 2Gi, 500m, 1)");
            return Optional.empty();
        }
        if (value.get().compareTo(parse(min).orElseThrow()) < 0) {
            v.add(field, "must be at least " + min);
            return Optional.empty();
        }
        if (max != null && value.get().compareTo(parse(max).orElseThrow()) > 0) {
            v.add(field, "must be at most " + max);
            return Optional.empty();
        }
        return value;
    }
}
