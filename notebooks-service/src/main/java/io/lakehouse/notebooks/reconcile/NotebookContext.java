package io.lakehouse.notebooks.reconcile;

import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.instances.InstanceContext;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import io.lakehouse.notebooks.config.NotebookSettings;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.HubContext;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.NotebookDefaults;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The service's context: the pure builders' {@link HubContext}, the form's defaults, and where the
 * reconciler reads what a hub's references are bound to.
 *
 * @param bound the bindings of a hub's references in its namespace (read when a hub is reconciled)
 * @param servers when the running user servers of a hub started
 */
public record NotebookContext(HubContext hub, NotebookDefaults defaults, BoundInstances bound, UserServers servers)
        implements InstanceContext {

    /** What the service learned of the referenced instances (blocking: called by the reconciler). */
    public interface BoundInstances {
        Bindings bindings(String namespace, LakehouseRefs refs);

        /** Per set reference (by field): whether its instance exists, and since when. */
        Map<String, StaleVariables.Binding> states(String namespace, LakehouseRefs refs);
    }

    /** The user servers KubeSpawner runs (blocking: called by the reconciler). */
    public interface UserServers {
        /** Start times of the running pods carrying these labels. */
        List<Instant> startTimes(String namespace, Map<String, String> labels);
    }

    public static NotebookContext of(String managedBy, ClusterSettings cluster, NotebookSettings notebooks,
            BoundInstances bound, UserServers servers) {
        HubContext hub = new HubContext(managedBy, cluster.domain(), cluster.ingressClass(),
                cluster.tlsSecret().orElse(null), cluster.storageClass().orElse(null), notebooks.forwardAuthUrl(),
                notebooks.signInUrl(), cluster.imagePullSecret().orElse(null), notebooks.images().hub(),
                notebooks.images().proxy(), new HubContext.Capacity(notebooks.hubCpu(), notebooks.hubMemory()),
                new HubContext.Capacity(notebooks.proxyCpu(), notebooks.proxyMemory()),
                IngressPeer.of(cluster.ingressController().namespace(), cluster.ingressController().podLabels()),
                cluster.s3ChecksumWhenRequired(), cluster.caCertificates());
        return new NotebookContext(hub, new NotebookDefaults(notebooks.defaultImage(), notebooks.defaultVersion()),
                bound, servers);
    }

    @Override
    public String managedBy() {
        return hub.managedBy();
    }

    @Override
    public String domain() {
        return hub.domain();
    }

    @Override
    public String ingressClass() {
        return hub.ingressClass();
    }

    @Override
    public String tlsSecret() {
        return hub.tlsSecret();
    }

    @Override
    public String forwardAuthUrl() {
        return hub.forwardAuthUrl();
    }

    @Override
    public String signInUrl() {
        return hub.signInUrl();
    }

    @Override
    public String imagePullSecret() {
        return hub.imagePullSecret();
    }

    @Override
    public boolean s3ChecksumWhenRequired() {
        return hub.s3ChecksumWhenRequired();
    }

    @Override
    public List<String> caCertificates() {
        return hub.caCertificates();
    }

    @Override
    public IngressPeer ingressPeer() {
        return hub.ingressPeer();
    }
}
