package io.lakehouse.common.kube;

/**
 * Samples of one informer's JSON that its {@link WholeJson}s are deflated against. Ten thousand catalogs' objects of
 * one kind differ in little but names, uids and checksums: against a sample of the same shape, an object deflates to
 * about a tenth of what it does alone (one catalog's kept JSON: ≈ 6,700 B alone, ≈ 900 B against samples), which
 * keeps the listed objects of a cold restart inside the heap (P8). An object that deflates poorly against the
 * current samples is of a shape not seen yet: it becomes a sample, until {@link #MAX_BYTES}. A dictionary only ever
 * grows into a new array, so each kept JSON holds the array it was deflated against.
 */
final class DeflateDictionary {

    /** zlib reads at most the last 32 KiB of a dictionary; each deflate reads all of it (≈ 1 µs per KiB). */
    static final int MAX_BYTES = 16 * 1024;
    /** Deflated to more than a quarter of its size: nothing of its shape among the samples yet. */
    private static final int POOR_RATIO = 4;

    private volatile byte[] samples = new byte[0];

    byte[] samples() {
        return samples;
    }

    /** Takes {@code json} as a sample if it deflated to {@code deflatedLength} bytes against the current ones. */
    synchronized void learn(byte[] json, int deflatedLength) {
        byte[] current = samples;
        if (deflatedLength * POOR_RATIO > json.length && current.length + json.length <= MAX_BYTES) {
            byte[] more = new byte[current.length + json.length];
            System.arraycopy(current, 0, more, 0, current.length);
            System.arraycopy(json, 0, more, current.length, json.length);
            samples = more;
        }
    }
}
