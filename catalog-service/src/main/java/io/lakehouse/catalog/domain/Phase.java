package io.lakehouse.catalog.domain;

/** Lifecycle phase of an instance, as the API shows it. */
public enum Phase {
    /** Stored, nothing applied yet. */
    Pending,
    /** Objects applied, database or server not ready yet. */
    Deploying,
    /** Database and server pods ready; realm or catalog not created yet: not usable. */
    Running,
    /** Usable: realm initialized, catalog created with its grants. */
    Ready,
    /** Was Ready, lost a part since. */
    Degraded,
    /** A task failed; the condition says why. */
    Failed,
    /** Being deleted. */
    Deleting
}
