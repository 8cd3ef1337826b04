package io.lakehouse.engines.kinds.sparkconnect;

import io.lakehouse.common.validation.Quantities;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** Memory sizes between Kubernetes quantities and Spark's notation, and the pod's headroom. */
final class SparkMemory {

    /** What the JVM needs besides the heap (metaspace, threads, direct buffers, Arrow). */
    static final String HEADROOM = "1Gi";
    private static final BigDecimal MI = BigDecimal.valueOf(1L << 20);
    private static final BigDecimal GI = BigDecimal.valueOf(1L << 30);

    private SparkMemory() {}

    /** The smallest pod memory for a heap of that many bytes. */
    static BigDecimal withHeadroom(BigDecimal heapBytes) {
        return heapBytes.add(Quantities.parse(HEADROOM).orElseThrow());
    }

    /** A byte count as a quantity: whole Gi or Mi when it is one, else bytes (rounded up). */
    static String quantity(BigDecimal bytes) {
        if (isMultipleOf(bytes, GI)) {
            return bytes.divide(GI).toBigInteger() + "Gi";
        }
        if (isMultipleOf(bytes, MI)) {
            return bytes.divide(MI).toBigInteger() + "Mi";
        }
        return bytes.setScale(0, RoundingMode.CEILING).toBigInteger().toString();
    }

    /** A quantity in Spark's notation, whole mebibytes rounded up: {@code 2Gi} gives {@code 2048m}. */
    static String spark(String quantity) {
        BigDecimal bytes = Quantities.parse(quantity)
                .orElseThrow(() -> new IllegalArgumentException("not a quantity: " + quantity));
        BigInteger mebibytes = bytes.divide(MI, 0, RoundingMode.CEILING).toBigInteger();
        return mebibytes.max(BigInteger.ONE) + "m";
    }

    private static boolean isMultipleOf(BigDecimal bytes, BigDecimal unit) {
        return bytes.signum() > 0 && bytes.remainder(unit).signum() == 0;
    }
}
