package io.lakehouse.notebooks.kinds.jupyterhub;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * An instance a hub may reference, as its {@code instance.*} events describe it: what user servers
 * need to reach it, never a secret value. The service keeps one per instance of the four referenced
 * kinds and turns the hub's references into {@link Bindings} with {@link #bindings}.
 *
 * @param namespace its namespace
 * @param kind {@code iceberg-catalog}, {@code trino}, {@code spark-connect} or {@code mlflow}
 * @param name its name
 * @param phase its last phase
 * @param deleting whether it is being deleted (or deleted)
 * @param internalEndpoint its address for clients of the namespace (null if not announced)
 * @param secret the Secret clients read: the catalog's root principal, Spark Connect's token (or null)
 * @param changedAt when it last appeared (requested) or went away (deleted)
 */
public record KnownInstance(String namespace, String kind, String name, String phase, boolean deleting,
        String internalEndpoint, String secret, Instant changedAt) {

    public static final String CATALOG = "iceberg-catalog";
    public static final String TRINO = "trino";
    public static final String SPARK_CONNECT = "spark-connect";
    public static final String MLFLOW = "mlflow";

    /**
     * The instance an event describes. Reads the engines' shape ({@code endpoints.internal},
     * {@code spec.requireToken}) and the catalog's ({@code spec.internalUri},
     * {@code spec.rootPrincipalSecret}); what is missing falls back to the names those services use.
     * The event alone: {@link io.lakehouse.notebooks.store.KnownInstanceStore#apply} merges it with what was
     * known (an endpoint the event does not repeat is kept; {@code changedAt} moves only when the instance
     * {@link #appears} or starts or stops being deleted).
     *
     * @param eventType the event type's short name, e.g. {@code instance.ready}
     * @param data the event's data
     * @param time the event's time
     */
    public static KnownInstance fromEvent(String eventType, JsonNode data, Instant time) {
        String kind = data.path("kind").asText();
        String name = data.path("name").asText();
        boolean deleting = eventType.equals("instance.deleting") || eventType.equals("instance.deleted");
        String endpoint = text(data.path("endpoints").path("internal"))
                .or(() -> text(data.path("spec").path("internalUri")))
                .orElse(null);
        String secret = switch (kind) {
            case CATALOG -> text(data.path("spec").path("rootPrincipalSecret")).orElse(name + "-root-principal");
            case SPARK_CONNECT -> data.path("spec").path("requireToken").asBoolean(false) ? name + "-platform" : null;
            default -> null;
        };
        String phase = eventType.equals("instance.deleted") ? "Deleted" : data.path("phase").asText(null);
        return new KnownInstance(data.path("namespace").asText(), kind, name, phase, deleting, endpoint, secret, time);
    }

    /** Whether the event is an instance's (re)appearance, which moves its {@code changedAt} whatever was known. */
    public static boolean appears(String eventType) {
        return eventType.equals("instance.requested");
    }

    /**
     * The bindings of a hub's references: an unknown or deleted instance has none (its variables are
     * left out); {@code find} looks an instance up by kind and name in the hub's namespace.
     */
    public static Bindings bindings(LakehouseRefs refs, Function<LakehouseRefs.Ref, Optional<KnownInstance>> find) {
        Bindings.Catalog catalog = null;
        Bindings.Trino trino = null;
        Bindings.SparkConnect spark = null;
        Bindings.Mlflow mlflow = null;
        for (LakehouseRefs.Ref ref : refs.set().values()) {
            Optional<KnownInstance> known = find.apply(ref).filter(k -> !k.deleting());
            if (known.isEmpty()) {
                continue;
            }
            KnownInstance k = known.get();
            switch (ref.kind()) {
                case CATALOG -> catalog = new Bindings.Catalog(k.name(), k.secret());
                case TRINO -> trino = k.internalEndpoint() == null ? null
                        : new Bindings.Trino(k.name(), hostAndPort(k.internalEndpoint()));
                case SPARK_CONNECT -> spark = k.internalEndpoint() == null ? null
                        : new Bindings.SparkConnect(k.name(), k.internalEndpoint(), k.secret(),
                                k.secret() == null ? null : k.name() + "-tls");
                case MLFLOW -> mlflow = k.internalEndpoint() == null ? null
                        : new Bindings.Mlflow(k.name(), k.internalEndpoint());
                default -> throw new IllegalArgumentException("not a referenced kind: " + ref.kind());
            }
        }
        return new Bindings(catalog, trino, spark, mlflow);
    }

    /** {@code https://trino.team-a.svc:8443} → {@code trino.team-a.svc:8443}. */
    static String hostAndPort(String url) {
        URI uri = URI.create(url);
        return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
    }

    private static Optional<String> text(JsonNode node) {
        return node.isTextual() && !node.asText().isEmpty() ? Optional.of(node.asText()) : Optional.empty();
    }
}
