package io.lakehouse.engines.kinds.nifi;

import io.lakehouse.common.validation.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/** Sizes in bytes given as Kubernetes quantities: sums, whole mebibytes and Java's {@code -Xmx} notation. */
final class ByteSizes {

    private static final BigDecimal MI = BigDecimal.valueOf(1L << 20);
    private static final BigDecimal GI = BigDecimal.valueOf(1L << 30);

    private ByteSizes() {}

    /** {@code 2Gi} → {@code 2048m}: whole mebibytes, rounded down, as {@code -Xms}/{@code -Xmx} take them. */
    static String javaHeap(String heap) {
        return mebibytes(heap) + "m";
    }

    /** Whole mebibytes of a valid quantity, rounded down. */
    static long mebibytes(String quantity) {
        BigDecimal bytes = Quantities.parse(quantity)
                .orElseThrow(() -> new IllegalArgumentException("not a quantity: " + quantity));
        return bytes.divide(MI, 0, RoundingMode.FLOOR).longValueExact();
    }

    /** {@code a + b} as a quantity ({@code 2Gi + 1Gi} → {@code 3Gi}); empty when either is not one. */
    static Optional<String> sum(String a, String b) {
        return Quantities.parse(a).flatMap(x -> Quantities.parse(b).map(y -> format(x.add(y))));
    }

    /** In Gi or Mi when whole, otherwise in bytes. */
    static String format(BigDecimal bytes) {
        // Exact: dividing by a power of two always terminates in decimal.
        BigDecimal gibibytes = bytes.divide(GI);
        if (isWhole(gibibytes)) {
            return gibibytes.toBigInteger() + "Gi";
        }
        BigDecimal mebibytes = bytes.divide(MI);
        if (isWhole(mebibytes)) {
            return mebibytes.toBigInteger() + "Mi";
        }
        return bytes.setScale(0, RoundingMode.CEILING).toBigInteger().toString();
    }

    private static boolean isWhole(BigDecimal value) {
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }
}
