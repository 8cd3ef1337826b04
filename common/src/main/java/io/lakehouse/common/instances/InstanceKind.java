package io.lakehouse.common.instances;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Violations;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One template (kind) of instances: its fields and rules, and the pure "spec → Kubernetes objects"
 * functions the generic API ({@link io.lakehouse.common.instances.api.InstanceService}), store
 * ({@link InstanceStore}) and reconciler ({@link InstanceReconciler}) call. Implementations hold no
 * state; a service offers a list of them ({@link InstanceKinds}).
 *
 * @param <C> the service's context: cluster settings and images the builders read
 */
public interface InstanceKind<C extends InstanceContext> {

    /** The kind in URLs and events, e.g. {@code trino}. */
    String kind();

    Template template();

    /** The spec record a request's {@code spec} is read into (unknown fields are refused). */
    Class<? extends InstanceSpec> specType();

    /**
     * {@code app.kubernetes.io/name} of the objects the framework makes for the instance (its root
     * object, {@code <name>-s3}); by default the kind.
     */
    default String app() {
        return kind();
    }

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
    InstanceSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog);

    /** The rules of a creation request (the spec has its defaults); adds every violation to v. */
    void checkCreate(Violations v, String name, String namespace, InstanceSpec spec);

    /** The rules of the capacity fields, checked again after a patch. */
    void checkCapacity(Violations v, InstanceSpec spec);

    /**
     * The spec after a JSON merge patch of a request (400/422 on a bad one); by default
     * {@link SpecPatch}: fixed fields may only repeat their value, then the capacity and change rules.
     */
    default InstanceSpec patch(InstanceSpec current, JsonNode patch) {
        return SpecPatch.apply(this, current, patch);
    }

    /** Rules on a change of capacity that depend on the value before it (a volume never shrinks). */
    default void checkChange(Violations v, InstanceSpec before, InstanceSpec after) {}

    /** Secrets whose values are generated once (tokens, keys, certificates): created, never rewritten. */
    List<GeneratedSecret> generatedSecrets(Instance inst, C ctx, OwnerReference owner);

    /** Every other object of the instance, enforced on each pass. Secret values only by reference. */
    List<HasMetadata> objects(Instance inst, C ctx, OwnerReference owner);

    /**
     * What the kind's objects and {@link #extraConditions} read from the service's context beyond the row, the gates,
     * the grants and the Secrets (a hub: the instances its references are bound to), as text that changes when it
     * does: a pass whose inputs did not change is skipped, and one whose desired objects' inputs did not change does
     * not build them again ({@link PassInputs}). Most kinds read nothing more.
     */
    default String contextInputs(Instance inst, C ctx) {
        return "";
    }

    /**
     * Whether the kind's objects are generated from its grants ({@link #accessObjects}): only then does the service keep
     * the instance's grants and does a grant change wake its pass (a pass of any other kind would find nothing to do).
     */
    default boolean readsGrants() {
        return false;
    }

    /**
     * Objects generated from the instance's grants (Trino's access rules), enforced on each pass like
     * {@link #objects}; a change of grants changes only these, so pods keep running. Most kinds have
     * none: the gateway's forward auth is their only access check. A kind that has some {@link #readsGrants}.
     */
    default List<HasMetadata> accessObjects(Instance inst, List<Subject> grants, C ctx,
            OwnerReference owner) {
        return List.of();
    }

    /**
     * {@link #accessObjects(Instance, List, InstanceContext, OwnerReference)} with the members of the
     * granted groups (group path to usernames, {@link Granted#groupMembers}), for a kind
     * whose engine maps users to groups from a file (Trino's group provider).
     */
    default List<HasMetadata> accessObjects(Instance inst, List<Subject> grants, Map<String, List<String>> groupMembers,
            C ctx, OwnerReference owner) {
        return accessObjects(inst, grants, ctx, owner);
    }

    /**
     * Objects others create for the instance and that go with it: CloudNativePG's {@code <name>-db-app}
     * Secret (removed by garbage collection with its Cluster on a real cluster), a StatefulSet's
     * volume claims (removed by its controller). The service deletes them itself so deletion leaves
     * nothing where no collector or controller runs.
     */
    default List<ObjectRef> leftovers(Instance inst) {
        return List.of();
    }

    /**
     * Conditions of the kind's own, shown after the framework's and not deciding the phase (a hub says
     * which variables of its users' servers are stale). Called on each pass; most kinds have none.
     */
    default List<Condition> extraConditions(Instance inst, C ctx) {
        return List.of();
    }

    /** The workloads whose readiness makes the instance Running, in the order conditions show them. */
    List<Part> parts(Instance inst);

    /**
     * The status from what the cluster shows, and the one-off tasks it allows; called on every pass
     * after the objects are applied. By default the gates and the {@link #parts} give the status
     * ({@link InstanceStatus}) and there are no tasks; a kind whose readiness needs tasks (the
     * catalog's realm and catalog creation) computes both.
     */
    default Progress progress(Instance inst, C ctx, OwnerReference owner, Gates gates, LiveObjects live, Instant now) {
        return Progress.of(InstanceStatus.compute(parts(inst), part -> live.get(part.kind(), part.objectName()), gates,
                inst.conditions(), inst.phase(), inst.generation(), now));
    }

    /** {@code internal} and, when it has one, {@code public} addresses. */
    Map<String, String> endpoints(Instance inst, C ctx);

    /** Names of the Secrets users of the instance may need (never their values). */
    List<String> secrets(Instance inst);

    /**
     * What other services need to use the instance, added to its events' {@code spec} (e.g. the
     * Spark Connect job profile). Never a secret value.
     */
    default void describe(Instance inst, C ctx, ObjectNode spec) {}
}
