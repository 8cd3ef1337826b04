package io.lakehouse.common.kube;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
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

    /** {@code json}, the {@link #compared} JSON of an object of this shape, deflated against the shape's sample. */
    static WholeJson of(String resourceVersion, byte[] json, DeflateDictionary dictionary, String shape) {
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

    /** A digest (128 bits of its SHA-256) of a version's {@link #compared} JSON: what tells two versions apart. */
    static String digest(byte[] comparedJson) {
        return Base64.getEncoder().withoutPadding().encodeToString(Arrays.copyOf(Checksums.sha256(comparedJson), 16));
    }

    /**
     * The JSON of what {@link LiveMatch#covers} reads of a live object's tree: not its status, and of its metadata
     * only the compared fields, without kubectl's last-applied copy. The tree is left as it is (the cache's compact
     * copy reads its status after).
     */
    static byte[] compared(JsonNode tree) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        try (JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
            json.writeStartObject();
            for (Iterator<Map.Entry<String, JsonNode>> fields = tree.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (LiveMatch.STATUS.equals(field.getKey())) {
                    continue;
                }
                json.writeFieldName(field.getKey());
                if ("metadata".equals(field.getKey()) && field.getValue().isObject()) {
                    writeComparedMetadata(json, field.getValue());
                } else {
                    MAPPER.writeTree(json, field.getValue());
                }
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void writeComparedMetadata(JsonGenerator json, JsonNode metadata) throws IOException {
        json.writeStartObject();
        for (Iterator<Map.Entry<String, JsonNode>> fields = metadata.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!LiveMatch.COMPARED_METADATA.contains(field.getKey())) {
                continue;
            }
            json.writeFieldName(field.getKey());
            if ("annotations".equals(field.getKey()) && field.getValue().has(CompactObject.LAST_APPLIED)) {
                ObjectNode annotations = field.getValue().deepCopy();
                annotations.remove(CompactObject.LAST_APPLIED);
                MAPPER.writeTree(json, annotations);
            } else {
                MAPPER.writeTree(json, field.getValue());
            }
        }
        json.writeEndObject();
    }
}
