package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * The whole of one version of a cached object, as deflated JSON, kept until a pass compared it with its desired state
 * ({@link Applier}). Why not the object itself: after a restart every listed object waits for its instance's first
 * pass, and ten thousand catalogs' fabric8 objects outgrew a 512 MiB heap (P8); their deflated JSON is about a
 * tenth of that. What no comparison reads is left out: {@code managedFields} and kubectl's last-applied copy.
 */
record WholeJson(String resourceVersion, byte[] deflated) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** {@code tree} is the object's JSON tree; its metadata loses the two fields no comparison reads. */
    static WholeJson of(String resourceVersion, JsonNode tree) {
        if (tree.get("metadata") instanceof ObjectNode metadata) {
            metadata.remove("managedFields");
            if (metadata.get("annotations") instanceof ObjectNode annotations) {
                annotations.remove(CompactObject.LAST_APPLIED);
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (DeflaterOutputStream out = new DeflaterOutputStream(bytes, deflater)) {
            MAPPER.writeValue(out, tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return new WholeJson(resourceVersion, bytes.toByteArray());
    }

    /** The object's JSON tree, as it was kept. */
    JsonNode tree() {
        Inflater inflater = new Inflater();
        try (InputStream in = new InflaterInputStream(new ByteArrayInputStream(deflated), inflater)) {
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            inflater.end();
        }
    }
}
