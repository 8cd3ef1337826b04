package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

/** What Kubernetes shows of one instance's workloads (null where the object does not exist). */
public record Observed(GenericKubernetesResource database, Deployment server, Job realmInit, Job catalogInit) {}
