package io.lakehouse.catalog.domain;

import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.S3Locations;
import io.lakehouse.common.validation.Violations;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The template's rules, as pure checks that collect every violation of a request. */
public final class CatalogRules {

    /** Suffixes of every object name derived from the instance name (see CatalogNames). */
    public static final List<String> DERIVED_SUFFIXES = List.of(
            CatalogNames.ROOT_PRINCIPAL_SUFFIX, CatalogNames.TOKEN_BROKER_SUFFIX, CatalogNames.REALM_INIT_SUFFIX,
            CatalogNames.CATALOG_INIT_SUFFIX, CatalogNames.DATABASE_SUFFIX + "-app", CatalogNames.ROOT_SUFFIX,
            CatalogNames.S3_SUFFIX);
    /** CloudNativePG's webhook refuses longer Cluster names. */
    static final int MAX_CNPG_CLUSTER_NAME = 50;
    public static final String MIN_MEMORY = "512Mi";
    public static final String MAX_MEMORY = "64Gi";
    public static final String MIN_CPU = "100m";
    public static final String MAX_CPU = "32";
    public static final String MIN_STORAGE = "1Gi";
    public static final String MAX_STORAGE = "10Ti";

    private static final Pattern CATALOG_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,62}");
    private static final Pattern REALM = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");
    private static final Pattern ACCESS_KEY = Pattern.compile("[\\x21-\\x7E]{1,256}");

    private CatalogRules() {}

    /** Validates a creation request; returns the spec with defaults, or throws 422 with every error. */
    public static CatalogSpec checkCreate(String name, String namespace, CatalogSpec requested) {
        Violations v = new Violations();
        Names.checkInstanceName(v, "name", name, namespace, DERIVED_SUFFIXES);
        if (!v.has("name") && CatalogNames.database(name).length() > MAX_CNPG_CLUSTER_NAME) {
            v.add("name", "is too long: the database cluster '" + CatalogNames.database(name) + "' may have at most "
                    + MAX_CNPG_CLUSTER_NAME + " characters (CloudNativePG), so at most "
                    + (MAX_CNPG_CLUSTER_NAME - CatalogNames.DATABASE_SUFFIX.length()) + " here");
        }
        if (requested == null) {
            v.add("spec", "is required");
            v.throwIfAny();
        }
        CatalogSpec spec = requested.withDefaults();
        checkStorage(v, spec.storage());
        if (!CATALOG_NAME.matcher(spec.catalogName()).matches() || "system".equalsIgnoreCase(spec.catalogName())) {
            v.add("spec.catalogName", "must start with a letter, use letters, digits, '_' and '-', have at most 63"
                    + " characters, and not be 'system'");
        }
        if (!REALM.matcher(spec.realm()).matches()) {
            v.add("spec.realm", "must use letters, digits, '_' and '-' and have at most 63 characters");
        }
        checkCapacity(v, spec);
        v.throwIfAny();
        return spec;
    }

    public static void checkCapacity(Violations v, CatalogSpec spec) {
        Quantities.check(v, "spec.resources.memory", spec.resources().memory(), MIN_MEMORY, MAX_MEMORY);
        Quantities.check(v, "spec.resources.cpu", spec.resources().cpu(), MIN_CPU, MAX_CPU);
        Quantities.check(v, "spec.database.storageSize", spec.database().storageSize(), MIN_STORAGE, MAX_STORAGE);
    }

    /** A database volume can grow, never shrink (CloudNativePG cannot shrink a PVC). */
    public static void checkStorageGrowth(Violations v, String before, String after) {
        Optional<BigDecimal> old = Quantities.parse(before);
        Optional<BigDecimal> now = Quantities.parse(after);
        if (old.isPresent() && now.isPresent() && now.get().compareTo(old.get()) < 0) {
            v.add("spec.database.storageSize", "cannot shrink from " + before + " to " + after);
        }
    }

    private static void checkStorage(Violations v, StorageSpec storage) {
        if (storage == null) {
            v.add("spec.storage", "is required: the warehouse S3 bucket");
            return;
        }
        S3Locations.checkBucket(v, "spec.storage.bucket", storage.bucket());
        S3Locations.checkEndpoint(v, "spec.storage.endpoint", storage.endpoint());
        S3Locations.checkRegion(v, "spec.storage.region", storage.region());
        boolean secret = storage.credentialsSecret() != null;
        if (secret == storage.hasInlineKeys()) {
            v.add("spec.storage", "give either credentialsSecret (a Secret of the namespace) or accessKeyId and"
                    + " secretAccessKey");
            return;
        }
        if (secret && !Names.isDns1123Label(storage.credentialsSecret())) {
            v.add("spec.storage.credentialsSecret", "is not a valid Secret name");
        }
        if (!secret) {
            checkKey(v, "spec.storage.accessKeyId", storage.accessKeyId());
            checkKey(v, "spec.storage.secretAccessKey", storage.secretAccessKey());
        }
    }

    private static void checkKey(Violations v, String field, String value) {
        if (value == null || value.isEmpty()) {
            v.add(field, "is required with inline keys");
        } else if (!ACCESS_KEY.matcher(value).matches()) {
            v.add(field, "must be 1-256 printable characters without spaces");
        }
    }
}
