package io.lakehouse.common.kube;

/** How an object is kept in line with its desired state. */
public enum ApplyMode {
    /** Created when missing, updated when it drifts from the desired state. */
    ENFORCE,
    /**
     * Created when missing, never changed afterwards: generated secrets (their values must stay
     * stable) and objects whose spec is immutable (Jobs, PVCs).
     */
    CREATE_ONLY
}
