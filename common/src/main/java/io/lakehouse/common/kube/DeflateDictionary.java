package io.lakehouse.common.kube;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One sample of each shape of an informer's JSON, which its {@link WholeJson}s are deflated against. Ten thousand
 * catalogs' objects of one shape (a catalog's Deployment, its Polaris ConfigMap) differ in little but names, uids and
 * checksums: against a sample of their shape they deflate to about a tenth of what they do alone (one catalog's kept
 * JSON: ≈ 5,800 B alone, ≈ 600 B against samples), which keeps the listed objects of a cold restart inside the heap
 * (P8). One sample per shape, not all of them: zlib reads the whole dictionary at each deflate (≈ 1 µs per KiB).
 * An object that deflates poorly against its shape's sample (the first of its shape, or one that changed a lot)
 * becomes the sample; each kept JSON holds the sample it was deflated against.
 */
final class DeflateDictionary {

    /** Larger objects are not samples: a dictionary is read whole at each deflate. */
    static final int MAX_SAMPLE_BYTES = 16 * 1024;
    /** Shapes held at most (names that repeat no instance's do not make a shape each for ever). */
    static final int MAX_SHAPES = 256;
    /** Deflated to more than a quarter of its size: nothing like it among the samples. */
    private static final int POOR_RATIO = 4;
    private static final byte[] NONE = new byte[0];

    private final ConcurrentHashMap<String, byte[]> samples = new ConcurrentHashMap<>();

    /** The sample of this shape, or an empty array. */
    byte[] sample(String shape) {
        return samples.getOrDefault(shape, NONE);
    }

    /** Takes {@code json} as its shape's sample if it deflated to {@code deflatedLength} bytes against the current. */
    void learn(String shape, byte[] json, int deflatedLength) {
        if (deflatedLength * POOR_RATIO > json.length && json.length <= MAX_SAMPLE_BYTES
                && (samples.size() < MAX_SHAPES || samples.containsKey(shape))) {
            samples.put(shape, json);
        }
    }

    /** How many shapes have a sample. */
    int shapes() {
        return samples.size();
    }
}
