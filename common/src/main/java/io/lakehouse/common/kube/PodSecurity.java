package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/** The Pod Security "restricted" profile, for images that run as a fixed non-root user. */
public final class PodSecurity {

    private PodSecurity() {}

    public static PodSecurityContext restrictedPod(long uid, long gid) {
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withRunAsUser(uid)
                .withRunAsGroup(gid)
                .withFsGroup(gid)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }

    public static SecurityContext restrictedContainer() {
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .build();
    }
}
