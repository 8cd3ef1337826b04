package io.lakehouse.sparkjobs.api;

import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.kube.SparkAccounts;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code POST /api/v1/namespaces/{ns}/spark-rbac}: ensures the {@code spark} account and its rights
 * (for namespaces that existed before the operator; every launch checks the same).
 */
@Path("/api/v1/namespaces/{namespace}/spark-rbac")
@Produces(MediaType.APPLICATION_JSON)
public class SparkRbacResource {

    /** @param created the kinds that were missing and are now there (empty: all were there) */
    public record RbacView(String serviceAccount, List<String> created) {}

    private final SparkAccounts accounts;
    private final SparkJobSettings settings;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;

    SparkRbacResource(SparkAccounts accounts, SparkJobSettings settings, Authorizer authorizer,
            SecurityIdentity caller) {
        this.accounts = accounts;
        this.settings = settings;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @POST
    public RbacView ensure(@PathParam("namespace") String namespace) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        return new RbacView(settings.serviceAccount(), accounts.ensure(namespace));
    }
}
