package io.lakehouse.notebooks.reconcile;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.HubNames;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/**
 * The users' volumes KubeSpawner made for a hub ({@code claim-<hub>-<user>}). They are not the
 * service's objects and outlive the hub; only an explicit request removes them.
 */
@ApplicationScoped
public class UserVolumes {

    private final KubernetesClient client;

    UserVolumes(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Deletes the hub's user volumes and returns their names. Both the labels KubeSpawner puts on them and
     * the name prefix must match: a kept volume of an earlier hub {@code <hub>-x} has the prefix but not the
     * labels, a volume someone labelled by hand has the labels but not the name.
     */
    public List<String> remove(String namespace, String hub) {
        String prefix = HubNames.userVolumeTemplate(hub).replace("{user_server}", "");
        List<PersistentVolumeClaim> claims = client.persistentVolumeClaims().inNamespace(namespace)
                .withLabels(Map.of(Labels.INSTANCE, hub, Labels.INSTANCE_KIND, HubInstance.KIND,
                        Labels.MANAGED_BY, HubNames.SPAWNER))
                .list().getItems().stream()
                .filter(pvc -> pvc.getMetadata().getName().startsWith(prefix))
                .toList();
        claims.forEach(pvc -> client.persistentVolumeClaims().inNamespace(namespace)
                .withName(pvc.getMetadata().getName()).delete());
        return claims.stream().map(pvc -> pvc.getMetadata().getName()).sorted().toList();
    }
}
