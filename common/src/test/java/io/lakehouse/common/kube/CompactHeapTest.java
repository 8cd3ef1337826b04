package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * P6 (≤ 15 KB of memory per instance): what the informer caches keep of one catalog once it converged, measured as
 * heap after a full GC. The fixture is one catalog's thirteen objects as the local API listed them (its twelve
 * children and CloudNativePG's {@code -db-app} Secret); each instance gets its own copy parsed from its own JSON, as
 * the informers get them (every string a new one), with its own names, uids, versions and checksums.
 */
class CompactHeapTest {

    private static final int INSTANCES = 500;
    /**
     * What the compact copies of one catalog may keep: ≈ 11,000 B measured (12,100 B before a generic
     * resource's status was made immutable and one owner's objects shared their owner references); 30,100 B before the strings were interned
     * and the empty maps dropped.
     */
    private static final long BYTES_PER_INSTANCE = 14_000;
    /**
     * What they keep before a pass compared them, what a comparison reads of their JSON deflated besides: ≈ 13,000 B
     * measured (18,500 B when each object's whole JSON was deflated alone, status and all).
     */
    private static final long BYTES_BEFORE_FIRST_PASS = 15_000;
    private static final Pattern UID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern CHECKSUM = Pattern.compile("\"[0-9a-f]{64}\"");
    private static final Pattern VERSION = Pattern.compile("\"resourceVersion\": *\"[0-9]+\"");
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private int versions;

    @Test
    void theCompactCopiesOfOneCatalogsObjectsKeepLessThanFourteenKilobytes() throws IOException {
        long perInstance = heapPerInstance(true);
        System.out.printf("CompactHeapTest: %d B per catalog (13 objects) in the cache%n", perInstance);
        assertThat(perInstance).as("heap per catalog's cached objects, bytes").isLessThan(BYTES_PER_INSTANCE);
    }

    /**
     * After a restart every listed object waits for its instance's first pass, with its whole JSON: ten thousand
     * catalogs must still fit in catalog-service's heap (P8).
     */
    @Test
    void beforeTheirFirstPassOneCatalogsObjectsKeepLessThanFifteenKilobytes() throws IOException {
        long perInstance = heapPerInstance(false);
        System.out.printf("CompactHeapTest: %d B per catalog (13 objects) in the cache before its first pass%n",
                perInstance);
        assertThat(perInstance).as("heap per catalog's cached objects before a pass, bytes")
                .isLessThan(BYTES_BEFORE_FIRST_PASS);
    }

    private long heapPerInstance(boolean compared) throws IOException {
        String catalog = fixture();
        // Jackson's and the JIT's caches are not the instances'
        fill(new HashMap<>(), catalog, 100, "warm-up", compared);

        long before = heapAfterGc();
        Map<String, InformerCacheStore> stores = new HashMap<>();
        fill(stores, catalog, INSTANCES, "c", compared);
        long after = heapAfterGc();

        assertThat(stores.values().stream().mapToInt(InformerCacheStore::size).sum()).isEqualTo(13 * INSTANCES);
        assertThat(stores.values().stream().flatMap(InformerCacheStore::values)).allMatch(CompactObject::isCompact);
        return (after - before) / INSTANCES;
    }

    /**
     * Each instance's objects parsed from their own JSON, stored as the informer of their kind stores them, then, if
     * {@code compared}, verified as the apply primitive does once it saw them carry their desired state.
     */
    private void fill(Map<String, InformerCacheStore> stores, String catalog, int instances, String prefix,
            boolean compared) {
        for (int i = 0; i < instances; i++) {
            KubernetesList list = SERIALIZATION.unmarshal(instance(catalog, prefix + i), KubernetesList.class);
            for (HasMetadata o : list.getItems()) {
                InformerCacheStore store = stores.computeIfAbsent(o.getKind(), k -> new InformerCacheStore());
                store.put(store.getKey(o), o);
            }
            for (HasMetadata o : compared ? list.getItems() : List.<HasMetadata>of()) {
                InformerCacheStore store = stores.get(o.getKind());
                HasMetadata stored = store.get(store.getKey(o));
                String checksum = stored.getMetadata().getAnnotations() == null ? null
                        : stored.getMetadata().getAnnotations().get(Labels.CHECKSUM);
                // The pass's own checksum is a string of its own, not the one parsed from the object.
                store.verified(stored, checksum == null ? "" : new String(checksum.toCharArray()));
            }
        }
    }

    /** The catalog's JSON with this instance's name, and uids, versions and checksums of its own. */
    private String instance(String catalog, String name) {
        Map<String, String> uids = new HashMap<>();
        String json = replace(UID, catalog.replace("c00000", name),
                m -> uids.computeIfAbsent(m.group(), u -> UUID.randomUUID().toString()));
        json = replace(CHECKSUM, json, m -> "\"" + Checksums.sha256(name + m.start()) + "\"");
        return replace(VERSION, json, m -> "\"resourceVersion\": \"" + ++versions + "\"");
    }

    private static String replace(Pattern p, String s, Function<MatchResult, String> by) {
        return p.matcher(s).replaceAll(m -> Matcher.quoteReplacement(by.apply(m)));
    }

    private static String fixture() throws IOException {
        try (InputStream in = CompactHeapTest.class.getResourceAsStream("/compact/one-catalog.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static long heapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
