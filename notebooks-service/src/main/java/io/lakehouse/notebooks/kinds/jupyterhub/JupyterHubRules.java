package io.lakehouse.notebooks.kinds.jupyterhub;

import io.lakehouse.common.storage.StorageRules;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/** The template's rules, as pure checks that add every violation of a request. */
public final class JupyterHubRules {

    public static final String MIN_CPU = "100m";
    public static final String MAX_CPU = "16";
    public static final String MIN_MEMORY = "512Mi";
    public static final String MAX_MEMORY = "64Gi";
    public static final String MIN_STORAGE = "1Gi";
    public static final String MAX_STORAGE = "1Ti";
    static final int MAX_IMAGE = 255;
    /** An image repository without tag or digest: [host[:port]/]path, lowercase path components. */
    private static final Pattern IMAGE = Pattern.compile(
            "([a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?(:[0-9]{1,5})?/)?[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*");
    /** An OCI tag. */
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    private JupyterHubRules() {}

    public static void checkCreate(Violations v, String name, String namespace, List<String> derivedSuffixes,
            JupyterHubSpec spec) {
        Names.checkInstanceName(v, "name", name, namespace, derivedSuffixes);
        if (spec.image() == null || spec.image().length() > MAX_IMAGE || !IMAGE.matcher(spec.image()).matches()) {
            v.add("spec.image", "must be an image repository without tag, e.g. ds/jupyter-datastack or"
                    + " registry.example.org:5000/team/notebook (the tag goes in version)");
        }
        if (spec.version() == null || !TAG.matcher(spec.version()).matches()) {
            v.add("spec.version", "must be an image tag: letters, digits, '_', '.' and '-', at most 128 characters,"
                    + " not starting with '.' or '-'");
        }
        if (spec.storage() != null) {
            StorageRules.check(v, "spec.storage", spec.storage());
        }
        checkCapacity(v, spec);
    }

    /** The fields a patch may change: capacity per user and the references (their names only). */
    public static void checkCapacity(Violations v, JupyterHubSpec spec) {
        PerUserSpec perUser = spec.perUser() == null ? new PerUserSpec(null, null, null) : spec.perUser();
        Quantities.check(v, "spec.perUser.cpu", perUser.cpu(), MIN_CPU, MAX_CPU);
        Quantities.check(v, "spec.perUser.memory", perUser.memory(), MIN_MEMORY, MAX_MEMORY);
        Quantities.check(v, "spec.perUser.storage", perUser.storage(), MIN_STORAGE, MAX_STORAGE);
        checkReferenceNames(v, spec.lakehouse());
    }

    /** Each reference is an instance name of the hub's own namespace (a DNS label, no namespace part). */
    public static void checkReferenceNames(Violations v, LakehouseRefs lakehouse) {
        LakehouseRefs refs = lakehouse == null ? LakehouseRefs.NONE : lakehouse;
        refs.set().forEach((field, ref) -> {
            if (!Names.isDns1123Label(ref.name())) {
                v.add("spec.lakehouse." + field,
                        "must be the name of an instance (" + ref.kind() + ") of this namespace");
            }
        });
    }

    /** What the service knows of a referenced instance of the namespace. */
    public record Known(String phase, boolean deleting) {}

    /**
     * Every reference must name a known, not deleting instance of its kind in the hub's namespace
     * ({@code find} looks one up by kind and name in the namespace); adds one violation per bad one.
     */
    public static void checkReferences(Violations v, LakehouseRefs refs, Function<LakehouseRefs.Ref, Optional<Known>> find) {
        if (refs == null) {
            return;
        }
        for (Map.Entry<String, LakehouseRefs.Ref> e : refs.set().entrySet()) {
            String field = "spec.lakehouse." + e.getKey();
            LakehouseRefs.Ref ref = e.getValue();
            if (v.has(field)) {
                continue;
            }
            Optional<Known> known = find.apply(ref);
            if (known.isEmpty()) {
                v.add(field, "no " + ref.kind() + " instance '" + ref.name() + "' in this namespace");
            } else if (known.get().deleting()) {
                v.add(field, "the " + ref.kind() + " instance '" + ref.name() + "' is being deleted");
            }
        }
    }
}
