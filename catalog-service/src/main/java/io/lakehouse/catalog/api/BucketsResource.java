package io.lakehouse.catalog.api;

import io.lakehouse.common.instances.api.PathParams;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /api/v1/namespaces/{ns}/buckets}: the namespace's buckets (Secrets labelled
 * {@code lakehouse.io/bucket=true}), so a form can fill endpoint, region and the credentials Secret.
 */
@Path("/api/v1/namespaces/{namespace}/buckets")
@Produces(MediaType.APPLICATION_JSON)
public class BucketsResource {

    private final NamespaceBuckets buckets;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;

    BucketsResource(NamespaceBuckets buckets, Authorizer authorizer, SecurityIdentity caller) {
        this.buckets = buckets;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @GET
    public Uni<List<BucketSecrets.Bucket>> list(@PathParam("namespace") String namespace) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        return buckets.list(namespace);
    }
}
