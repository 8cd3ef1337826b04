package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.CompactObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Pods read their Secrets only at start (environment) or late (volumes): a rotated S3 key or OIDC
 * client secret would stay unused. Each pod template therefore carries a digest of the data of every
 * Secret it references; a change of that data changes the template, and the workload rolls. The
 * annotation holds one SHA-256 over all of them, never a value.
 */
public final class PodSecrets {

    public static final String DIGEST = "lakehouse.io/secrets-digest";

    private PodSecrets() {}

    /** The names of every Secret the pod references: env, envFrom, volumes (projected too), all containers. */
    public static List<String> referenced(PodSpec pod) {
        TreeSet<String> names = new TreeSet<>();
        List<Container> containers = new ArrayList<>(pod.getContainers());
        if (pod.getInitContainers() != null) {
            containers.addAll(pod.getInitContainers());
        }
        for (Container c : containers) {
            for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                    names.add(e.getValueFrom().getSecretKeyRef().getName());
                }
            }
            for (EnvFromSource e : c.getEnvFrom() == null ? List.<EnvFromSource>of() : c.getEnvFrom()) {
                if (e.getSecretRef() != null) {
                    names.add(e.getSecretRef().getName());
                }
            }
        }
        for (Volume v : pod.getVolumes() == null ? List.<Volume>of() : pod.getVolumes()) {
            if (v.getSecret() != null) {
                names.add(v.getSecret().getSecretName());
            }
            if (v.getProjected() != null) {
                for (VolumeProjection p : v.getProjected().getSources()) {
                    if (p.getSecret() != null) {
                        names.add(p.getSecret().getName());
                    }
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * The digest of the referenced Secrets' data, read with {@code read}; a missing Secret counts as
     * such (its creation changes the digest too).
     */
    public static String digest(List<String> names, Function<String, Optional<Secret>> read) {
        Map<String, String> all = new TreeMap<>();
        for (String name : names) {
            // By the digest of each Secret's data: the informer cache holds no Secret values (CompactObject).
            all.put(name, read.apply(name).map(CompactObject::dataDigest).orElse("<missing>"));
        }
        return Checksums.sha256(all.toString());
    }

    /** The workload with the digest annotation on its pod template; other objects unchanged. */
    public static HasMetadata withDigest(HasMetadata o, Function<String, Optional<Secret>> read) {
        PodTemplateSpec template = o instanceof Deployment d ? d.getSpec().getTemplate()
                : o instanceof StatefulSet s ? s.getSpec().getTemplate() : null;
        if (template == null) {
            return o;
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        if (template.getMetadata().getAnnotations() != null) {
            annotations.putAll(template.getMetadata().getAnnotations());
        }
        annotations.put(DIGEST, digest(referenced(template.getSpec()), read));
        template.getMetadata().setAnnotations(annotations);
        return o;
    }
}
