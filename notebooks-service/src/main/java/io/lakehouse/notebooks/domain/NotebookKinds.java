package io.lakehouse.notebooks.domain;

import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.notebooks.kinds.jupyterhub.NotebookDefaults;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import java.util.ArrayList;
import java.util.List;

/** The kinds this service offers, and the object kinds it manages. */
public final class NotebookKinds {

    /** The framework's kinds plus the hub's RBAC objects (cached, so drift on them is repaired too). */
    public static final List<ResourceKind> MANAGED = managed();

    private NotebookKinds() {}

    public static InstanceKinds<NotebookContext> of(NotebookDefaults defaults) {
        return new InstanceKinds<>(List.of(new JupyterHubInstanceKind(defaults)));
    }

    private static List<ResourceKind> managed() {
        List<ResourceKind> kinds = new ArrayList<>(InstanceReconciler.KINDS);
        kinds.addAll(List.of(ResourceKind.SERVICE_ACCOUNT, ResourceKind.ROLE, ResourceKind.ROLE_BINDING));
        return List.copyOf(kinds);
    }
}
