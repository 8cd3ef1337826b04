package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The tracker's informer cache: each SparkApplication as its {@link ApplicationStatus#compact} copy. The handlers
 * still get the whole object of every event; the cache serves the resyncs, the relists' comparisons (by
 * resourceVersion) and the deletions, which read only that.
 */
public final class CompactApplicationStore extends BasicItemStore<GenericKubernetesResource> {

    public CompactApplicationStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public GenericKubernetesResource put(String key, GenericKubernetesResource app) {
        return super.put(key, ApplicationStatus.compact(app));
    }
}
