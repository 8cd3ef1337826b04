package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * What a pass compares of one version of a cached object ({@link LiveMatch#covers}), as deflated JSON, kept until a
 * pass compared it with its desired state ({@link Applier}). Why not the object itself: after a restart every listed
 * object waits for its instance's first pass, and ten thousand catalogs' fabric8 objects outgrew a 512 MiB heap
 * (P8). Only what a comparison reads is kept: no status, and of the metadata the labels, the annotations (but
 * kubectl's last-applied copy) and the owner references. It is deflated against a sample of its shape among its
 * informer's objects ({@link DeflateDictionary}), which it holds.
 */
record WholeJson(String resourceVersion, byte[] deflated, byte[] dictionary) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** {@code tree}, the JSON of an object of this shape, loses what no comparison reads: read it before. */
    static WholeJson of(String resourceVersion, JsonNode tree, DeflateDictionary dictionary, String shape) {
        byte[] json = compared(tree);
        byte[] sample = dictionary.sample(shape);
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            if (sample.length > 0) {
                deflater.setDictionary(sample);
            }
            deflater.setInput(json);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, json.length / 4));
            byte[] buffer = new byte[Math.max(256, json.length / 2)];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            byte[] deflated = out.toByteArray();
            dictionary.learn(shape, json, deflated.length);
            return new WholeJson(resourceVersion, deflated, sample);
        } finally {
            deflater.end();
        }
    }

    /** The object's JSON tree, as it was kept. */
    JsonNode tree() {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.length * 8);
            byte[] buffer = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && inflater.needsDictionary()) {
                    inflater.setDictionary(dictionary);
                } else if (n == 0 && inflater.needsInput()) {
                    throw new IllegalStateException("kept JSON truncated");
                }
                out.write(buffer, 0, n);
            }
            return MAPPER.readTree(out.toByteArray());
        } catch (DataFormatException e) {
            throw new IllegalStateException("kept JSON unreadable", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            inflater.end();
        }
    }

    /** The tree's JSON without what {@link LiveMatch#covers} does not read, nor kubectl's last-applied copy. */
    private static byte[] compared(JsonNode tree) {
        if (tree instanceof ObjectNode object) {
            LiveMatch.dropUncompared(object);
            if (object.path("metadata").get("annotations") instanceof ObjectNode annotations) {
                annotations.remove(CompactObject.LAST_APPLIED);
            }
        }
        try {
            return MAPPER.writeValueAsBytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
