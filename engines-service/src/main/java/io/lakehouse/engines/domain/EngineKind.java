package io.lakehouse.engines.domain;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One engine template: its fields and rules, and the pure "spec → Kubernetes objects" functions the
 * generic API, store and reconciler of the service call. Implementations hold no state.
 */
public interface EngineKind {

    /** The kind in URLs and events, e.g. {@code trino}. */
    String kind();

    Template template();

    /** The spec record a request's {@code spec} is read into (unknown fields are refused). */
    Class<? extends EngineSpec> specType();

    /** Suffixes of every object name derived from the instance name, for name-length checks. */
    List<String> derivedSuffixes();

    /** Top-level spec fields fixed at creation: a patch may only repeat their current value. */
    Set<String> fixedFields();

    /** Whether access-service makes an OIDC client ({@code <name>-oidc}) the pods wait for. */
    boolean usesOidcClient();

    /**
     * The requested spec with every omitted field at its default; a referenced catalog, when given
     * and known, provides the defaults it implies (warehouse, bucket).
     */
    EngineSpec withDefaults(EngineSpec requested, Optional<CatalogRef> catalog);

    /** The rules of a creation request (the spec has its defaults); adds every violation to v. */
    void checkCreate(Violations v, String name, String namespace, EngineSpec spec);

    /** The rules of the capacity fields, checked again after a patch. */
    void checkCapacity(Violations v, EngineSpec spec);

    /** Rules on a change of capacity that depend on the value before it (a volume never shrinks). */
    default void checkChange(Violations v, EngineSpec before, EngineSpec after) {}

    /** Secrets whose values are generated once (tokens, keys, certificates): created, never rewritten. */
    List<GeneratedSecret> generatedSecrets(EngineInstance inst, EngineContext ctx, OwnerReference owner);

    /** Every other object of the instance, enforced on each pass. Secret values only by reference. */
    List<HasMetadata> objects(EngineInstance inst, EngineContext ctx, OwnerReference owner);

    /**
     * Objects generated from the instance's grants (Trino's access rules), enforced on each pass like
     * {@link #objects}; a change of grants changes only these, so pods keep running. Most kinds have
     * none: the gateway's forward auth is their only access check.
     */
    default List<HasMetadata> accessObjects(EngineInstance inst, List<Subject> grants, EngineContext ctx,
            OwnerReference owner) {
        return List.of();
    }

    /**
     * Objects others create for the instance and that go with it: CloudNativePG's {@code <name>-db-app}
     * Secret (removed by garbage collection with its Cluster on a real cluster), a StatefulSet's
     * volume claims (removed by its controller). The service deletes them itself so deletion leaves
     * nothing where no collector or controller runs.
     */
    default List<ObjectRef> leftovers(EngineInstance inst) {
        return List.of();
    }

    /** The workloads whose readiness makes the instance Running, in the order conditions show them. */
    List<Part> parts(EngineInstance inst);

    /** {@code internal} and, when it has one, {@code public} addresses. */
    Map<String, String> endpoints(EngineInstance inst, EngineContext ctx);

    /** Names of the Secrets users of the instance may need (never their values). */
    List<String> secrets(EngineInstance inst);

    /**
     * What other services need to use the instance, added to its events' {@code spec} (e.g. the
     * Spark Connect job profile). Never a secret value.
     */
    default void describe(EngineInstance inst, EngineContext ctx, ObjectNode spec) {}
}
