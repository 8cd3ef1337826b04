package io.lakehouse.common.instances;

import io.lakehouse.common.problem.ApiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The kinds one service offers, by their URL name. */
public final class InstanceKinds<C extends InstanceContext> {

    private final Map<String, InstanceKind<C>> kinds = new LinkedHashMap<>();

    public InstanceKinds(List<InstanceKind<C>> kinds) {
        kinds.forEach(k -> this.kinds.put(k.kind(), k));
    }

    public List<InstanceKind<C>> all() {
        return List.copyOf(kinds.values());
    }

    public Optional<InstanceKind<C>> find(String kind) {
        return Optional.ofNullable(kinds.get(kind));
    }

    /** The kind of a stored instance; an unknown one is a bug, not user input. */
    public InstanceKind<C> of(String kind) {
        return find(kind).orElseThrow(() -> new IllegalStateException("unknown instance kind " + kind));
    }

    /** The kind named in a URL, or 404. */
    public InstanceKind<C> fromPath(String kind) {
        return find(kind).orElseThrow(() -> ApiException.notFound("no instance kind '" + kind + "' here; kinds: "
                + String.join(", ", kinds.keySet())));
    }
}
