package io.lakehouse.notebooks.kinds.jupyterhub;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.security.Subject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code <name>-access}: the users and groups granted the instance, which the hub's authenticator
 * reads at every sign-in ({@code grants.json}: {@code users} are identity keys, {@code groups} full
 * paths as in the platform's tokens). A change of grants changes only this ConfigMap: the kubelet
 * refreshes the mounted file and the hub keeps running.
 */
final class HubAccess {

    static final String FILE = "grants.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private HubAccess() {}

    static ConfigMap grants(HubInstance inst, List<Subject> grants, HubContext ctx, OwnerReference owner) {
        List<String> users = names(grants, Subject.Type.USER);
        List<String> groups = names(grants, Subject.Type.GROUP);
        String json;
        try {
            json = JSON.writeValueAsString(new TreeMap<>(Map.of("users", users, "groups", groups))) + "\n";
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new ConfigMapBuilder()
                .withMetadata(HubMeta.meta(HubNames.access(inst.name()), inst, ctx, HubNames.HUB, owner))
                .withData(Map.of(FILE, json))
                .build();
    }

    private static List<String> names(List<Subject> grants, Subject.Type type) {
        return grants.stream().filter(s -> s.type() == type).map(Subject::name).distinct().sorted().toList();
    }
}
