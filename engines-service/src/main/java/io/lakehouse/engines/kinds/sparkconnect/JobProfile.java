package io.lakehouse.engines.kinds.sparkconnect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.engines.reconcile.EngineContext;

/**
 * The job profile sparkjobs-service reads from the instance's events ({@code spec.profile}): what a
 * batch job needs to run with the server's image on the same catalog and bucket. Secret values only
 * by reference:
 * <ul>
 *   <li>{@code image}, {@code pullSecret} (null when the cluster needs none);
 *   <li>{@code sparkConf}: the session's non-secret {@code spark.*} properties;
 *   <li>{@code secretEnv}: {@code [{name, secret, key}]}, environment variables to take from Secrets
 *       (the catalog's root principal, the bucket's keys, which the AWS SDK reads itself);
 *   <li>{@code sparkConfFromEnv}: properties whose values are shell words over those variables,
 *       e.g. {@code ${CATALOG_CLIENT_ID}:${CATALOG_CLIENT_SECRET}}, to expand in the pod.
 * </ul>
 */
final class JobProfile {

    private JobProfile() {}

    static void describe(Instance inst, EngineContext ctx, ObjectNode spec) {
        SparkConnectSpec s = SparkProperties.spec(inst);
        ObjectNode profile = spec.putObject("profile");
        profile.put("image", ctx.sparkConnectImage());
        profile.put("pullSecret", ctx.imagePullSecret());
        ObjectNode conf = profile.putObject("sparkConf");
        SparkProperties.session(s, ctx).forEach(conf::put);
        ArrayNode env = profile.putArray("secretEnv");
        SparkProperties.secretEnv(s).forEach(e -> env.addObject()
                .put("name", e.name()).put("secret", e.secret()).put("key", e.key()));
        ObjectNode fromEnv = profile.putObject("sparkConfFromEnv");
        SparkProperties.fromEnv().forEach(fromEnv::put);
    }
}
