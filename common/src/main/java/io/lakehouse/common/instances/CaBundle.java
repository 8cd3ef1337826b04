package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.EnvVars;
import io.lakehouse.common.kube.PodSecurity;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster's private CA bundle ({@code lakehouse.cluster.ca-bundle}) in an instance's pods, for
 * Keycloak and S3 behind a private CA. The certificates go to the ConfigMap {@code <name>-ca-certs},
 * one file each ({@code ca-1.crt}, …: keytool imports only the first certificate of a file); an init
 * container built from the component's own image writes what the main container trusts into an
 * emptyDir: a Java truststore (the image's JDK {@code cacerts} + the bundle) or a PEM file (the
 * image's Python roots + the bundle). Both scripts are constant text; the directories are arguments.
 */
public final class CaBundle {

    public static final String SUFFIX = "-ca-certs";
    /** The ConfigMap's files, mounted here in the init container. */
    public static final String CA_DIR = "/lakehouse/ca";
    /** The emptyDir the init container writes and the main container reads. */
    public static final String TRUST_DIR = "/lakehouse/truststore";
    public static final String JAVA_TRUSTSTORE = TRUST_DIR + "/cacerts";
    public static final String PEM_BUNDLE = TRUST_DIR + "/ca-bundle.pem";
    /** The JDK's well-known default: the store holds public certificates only. */
    public static final String TRUSTSTORE_PASSWORD = "changeit";
    public static final String CHECKSUM = "lakehouse.io/ca-bundle-checksum";
    /** The volumes the init containers mount (pods built as JSON trees name them too). */
    public static final String CA_VOLUME = "ca-bundle";
    public static final String TRUST_VOLUME = "truststore";
    private static final Pattern PEM_CERT = Pattern.compile(
            "-----BEGIN CERTIFICATE-----\\s*([A-Za-z0-9+/=\\s]+?)-----END CERTIFICATE-----");

    /**
     * The image's default cacerts (JAVA_HOME's, or the JDK keytool belongs to) copied to a PKCS12
     * store, then every certificate of the bundle imported. $1: the bundle's directory, $2: the output.
     */
    static final String JAVA_SCRIPT = """
            set -eu
            jdk="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v keytool)")")")}"
            rm -f "$2/cacerts"
            keytool -importkeystore -noprompt -srckeystore "$jdk/lib/security/cacerts" -srcstorepass changeit \\
              -destkeystore "$2/cacerts" -deststoretype PKCS12 -deststorepass changeit >/dev/null
            for f in "$1"/ca-*.crt; do
              keytool -importcert -noprompt -alias "lakehouse-$(basename "$f" .crt)" -file "$f" \\
                -keystore "$2/cacerts" -storepass changeit >/dev/null
            done
            """;

    /**
     * The roots the image's Python trusts (certifi's, which requests uses, else the system bundle)
     * followed by the bundle's certificates. $1: the bundle's directory, $2: the output.
     */
    static final String PYTHON_SCRIPT = """
            set -eu
            roots="$(python3 -c 'import certifi; print(certifi.where())' 2>/dev/null \\
              || echo /etc/ssl/certs/ca-certificates.crt)"
            cat "$roots" "$1"/ca-*.crt > "$2/ca-bundle.pem"
            """;

    private CaBundle() {}

    /**
     * The PEM certificates of a bundle, each checked to be an X.509 certificate.
     *
     * @throws IllegalArgumentException when the text holds no certificate or a malformed one
     */
    public static List<String> certificates(String pem) {
        List<String> certs = new ArrayList<>();
        Matcher m = PEM_CERT.matcher(pem == null ? "" : pem);
        while (m.find()) {
            String body = m.group(1).replaceAll("\\s", "");
            String cert = "-----BEGIN CERTIFICATE-----\n" + wrap(body) + "-----END CERTIFICATE-----\n";
            try {
                CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(cert.getBytes(StandardCharsets.US_ASCII)));
            } catch (CertificateException | IllegalArgumentException e) {
                throw new IllegalArgumentException("lakehouse.cluster.ca-bundle: certificate " + (certs.size() + 1)
                        + " is not a valid X.509 certificate");
            }
            certs.add(cert);
        }
        if (certs.isEmpty()) {
            throw new IllegalArgumentException(
                    "lakehouse.cluster.ca-bundle holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return List.copyOf(certs);
    }

    private static String wrap(String base64) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < base64.length(); i += 64) {
            out.append(base64, i, Math.min(base64.length(), i + 64)).append('\n');
        }
        return out.toString();
    }

    public static String configMapName(String name) {
        return name + SUFFIX;
    }

    /** Whether the cluster has a bundle: everything below is added only then. */
    public static boolean enabled(InstanceContext ctx) {
        return !ctx.caCertificates().isEmpty();
    }

    /** {@code <name>-ca-certs}, one file per certificate; none without a bundle. */
    public static List<ConfigMap> configMaps(String app, Instance inst, InstanceContext ctx, OwnerReference owner) {
        return ctx.caCertificates().isEmpty() ? List.of() : List.of(configMap(
                InstanceObjects.meta(configMapName(inst.name()), app, inst, ctx, "ca-bundle", owner),
                ctx.caCertificates()));
    }

    /** The ConfigMap of a non-empty bundle, with the given metadata. */
    public static ConfigMap configMap(ObjectMeta meta, List<String> certs) {
        return new ConfigMapBuilder().withMetadata(meta).withData(files(certs)).build();
    }

    /** The ConfigMap's files: {@code ca-1.crt}, {@code ca-2.crt}, … in the bundle's order. */
    public static Map<String, String> files(List<String> certs) {
        Map<String, String> data = new LinkedHashMap<>();
        for (int i = 0; i < certs.size(); i++) {
            data.put("ca-" + (i + 1) + ".crt", certs.get(i));
        }
        return data;
    }

    /** The ConfigMap and the emptyDir the init container fills; none without a bundle. */
    public static List<Volume> volumes(Instance inst, InstanceContext ctx) {
        return volumes(inst.name(), ctx.caCertificates());
    }

    /** {@link #volumes(Instance, InstanceContext)} of instance {@code name}. */
    public static List<Volume> volumes(String name, List<String> certs) {
        if (certs.isEmpty()) {
            return List.of();
        }
        return List.of(
                new VolumeBuilder().withName(CA_VOLUME)
                        .withNewConfigMap().withName(configMapName(name)).endConfigMap().build(),
                new VolumeBuilder().withName(TRUST_VOLUME)
                        .withNewEmptyDir().withSizeLimit(new Quantity("16Mi")).endEmptyDir().build());
    }

    /** The main container's read-only view of what the init container wrote; none without a bundle. */
    public static List<VolumeMount> mounts(InstanceContext ctx) {
        return mounts(ctx.caCertificates());
    }

    public static List<VolumeMount> mounts(List<String> certs) {
        return certs.isEmpty() ? List.of() : List.of(mount(TRUST_VOLUME, TRUST_DIR, true));
    }

    /** The init container writing the Java truststore, from the component's image; none without a bundle. */
    public static List<Container> javaInit(String image, InstanceContext ctx) {
        return javaInit(image, ctx.caCertificates());
    }

    public static List<Container> javaInit(String image, List<String> certs) {
        return certs.isEmpty() ? List.of() : List.of(init("ca-truststore", image, JAVA_SCRIPT));
    }

    /** The init container writing the Python PEM bundle, from the component's image; none without a bundle. */
    public static List<Container> pythonInit(String image, InstanceContext ctx) {
        return pythonInit(image, ctx.caCertificates());
    }

    public static List<Container> pythonInit(String image, List<String> certs) {
        return certs.isEmpty() ? List.of() : List.of(init("ca-bundle", image, PYTHON_SCRIPT));
    }

    /** The init container's command: the constant script, then the two directories as arguments. */
    private static List<String> command(String script) {
        return List.of("sh", "-c", script, "ca-bundle", CA_DIR, TRUST_DIR);
    }

    /**
     * A pod-template annotation with a digest of the bundle (public certificates), so pods restart when
     * it changes (a ConfigMap edit does not restart them); none without a bundle.
     */
    public static Map<String, String> podAnnotations(InstanceContext ctx) {
        return podAnnotations(ctx.caCertificates());
    }

    public static Map<String, String> podAnnotations(List<String> certs) {
        return certs.isEmpty() ? Map.of() : Map.of(CHECKSUM, Checksums.sha256(String.join("", certs)));
    }

    /** The JVM options that make the JDK's default SSL context trust the store; empty without a bundle. */
    public static List<String> javaOptions(InstanceContext ctx) {
        return javaOptions(ctx.caCertificates());
    }

    public static List<String> javaOptions(List<String> certs) {
        return !certs.isEmpty()
                ? List.of("-Djavax.net.ssl.trustStore=" + JAVA_TRUSTSTORE, "-Djavax.net.ssl.trustStoreType=PKCS12",
                        "-Djavax.net.ssl.trustStorePassword=" + TRUSTSTORE_PASSWORD)
                : List.of();
    }

    /**
     * Python's ssl module (OpenSSL), requests, and boto3/botocore read one CA file each from these;
     * none without a bundle.
     */
    public static List<EnvVar> pythonEnv(InstanceContext ctx) {
        return pythonEnv(ctx.caCertificates());
    }

    public static List<EnvVar> pythonEnv(List<String> certs) {
        return !certs.isEmpty()
                ? List.of(EnvVars.value("SSL_CERT_FILE", PEM_BUNDLE), EnvVars.value("REQUESTS_CA_BUNDLE", PEM_BUNDLE),
                        EnvVars.value("AWS_CA_BUNDLE", PEM_BUNDLE))
                : List.of();
    }

    private static Container init(String name, String image, String script) {
        // Sorted: the hub's configuration holds this container as text, the same on every pass.
        Map<String, Quantity> requests = new TreeMap<>(
                Map.of("cpu", new Quantity("50m"), "memory", new Quantity("128Mi")));
        Map<String, Quantity> limits = new TreeMap<>(
                Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi")));
        return new ContainerBuilder()
                .withName(name)
                .withImage(image)
                .withCommand(command(script))
                .withNewResources().withRequests(requests).withLimits(limits).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .withVolumeMounts(mount(CA_VOLUME, CA_DIR, true), mount(TRUST_VOLUME, TRUST_DIR, false))
                .build();
    }

    private static VolumeMount mount(String volume, String path, boolean readOnly) {
        return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly ? true : null)
                .build();
    }
}
