package io.lakehouse.catalog.domain;

import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.storage.StorageRules;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.common.validation.Warehouses;
import java.util.List;
import java.util.regex.Pattern;

/** The template's rules, as pure checks that collect every violation of a request. */
public final class CatalogRules {

    /** Suffixes of every object name derived from the instance name (see CatalogNames). */
    public static final List<String> DERIVED_SUFFIXES = List.of(
            CatalogNames.ROOT_PRINCIPAL_SUFFIX, CatalogNames.TOKEN_BROKER_SUFFIX, CatalogNames.REALM_INIT_SUFFIX,
            CatalogNames.CATALOG_INIT_SUFFIX, CatalogNames.DATABASE_SUFFIX + "-app", CatalogNames.ROOT_SUFFIX,
            CatalogNames.S3_SUFFIX, CatalogNames.CONFIG_SUFFIX, CaBundle.SUFFIX);
    /** CloudNativePG's webhook refuses longer Cluster names. */
    static final int MAX_CNPG_CLUSTER_NAME = 50;
    public static final String MIN_MEMORY = "512Mi";
    public static final String MAX_MEMORY = "64Gi";
    public static final String MIN_CPU = "100m";
    public static final String MAX_CPU = "32";
    public static final String MIN_STORAGE = "1Gi";
    public static final String MAX_STORAGE = "10Ti";

    private static final Pattern REALM = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");

    private CatalogRules() {}

    /** Validates a creation request; returns the spec with defaults, or throws 422 with every error. */
    public static CatalogSpec checkCreate(String name, String namespace, CatalogSpec requested) {
        Violations v = new Violations();
        CatalogSpec spec = requested == null ? null : requested.withDefaults();
        check(v, name, namespace, spec);
        v.throwIfAny();
        return spec;
    }

    /** Adds every violation of a creation request (the spec has its defaults, or is null) to v. */
    public static void check(Violations v, String name, String namespace, CatalogSpec spec) {
        Names.checkInstanceName(v, "name", name, namespace, DERIVED_SUFFIXES);
        if (!v.has("name") && CatalogNames.database(name).length() > MAX_CNPG_CLUSTER_NAME) {
            v.add("name", "is too long: the database cluster '" + CatalogNames.database(name) + "' may have at most "
                    + MAX_CNPG_CLUSTER_NAME + " characters (CloudNativePG), so at most "
                    + (MAX_CNPG_CLUSTER_NAME - CatalogNames.DATABASE_SUFFIX.length()) + " here");
        }
        if (spec == null) {
            v.add("spec", "is required");
            return;
        }
        StorageRules.check(v, "spec.storage", spec.storage());
        Warehouses.check(v, "spec.catalogName", spec.catalogName());
        if (!REALM.matcher(spec.realm()).matches()) {
            v.add("spec.realm", "must use letters, digits, '_' and '-' and have at most 63 characters");
        }
        checkCapacity(v, spec);
    }

    public static void checkCapacity(Violations v, CatalogSpec spec) {
        Quantities.check(v, "spec.resources.memory", spec.resources().memory(), MIN_MEMORY, MAX_MEMORY);
        Quantities.check(v, "spec.resources.cpu", spec.resources().cpu(), MIN_CPU, MAX_CPU);
        Quantities.check(v, "spec.database.storageSize", spec.database().storageSize(), MIN_STORAGE, MAX_STORAGE);
    }

}
