package io.lakehouse.access.oidc;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.kube.Labels;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code <name>-oidc} Secret of an instance (keys clientId, clientSecret, issuer), written as
 * base64 {@code data}. Rewritten only when its content differs. A Secret of that name that access-service
 * did not write for this instance (managed-by and instance labels) is a tenant's: never overwritten nor
 * deleted.
 */
@ApplicationScoped
public class OidcSecrets {

    private final KubernetesClient kube;
    private final String managedBy;

    OidcSecrets(KubernetesClient kube, ServiceSettings service) {
        this.kube = kube;
        this.managedBy = service.name();
    }

    public void write(InstanceKey key, String clientId, String clientSecret, String issuer) {
        Map<String, String> data = new TreeMap<>();
        data.put("clientId", b64(clientId));
        data.put("clientSecret", b64(clientSecret));
        data.put("issuer", b64(issuer));
        Map<String, String> labels = Labels.of(key.kind(), key.kind(), key.name(), "oidc-client", managedBy);
        Secret live = kube.secrets().inNamespace(key.namespace()).withName(OidcClientSpec.secretName(key)).get();
        if (live == null) {
            kube.secrets().inNamespace(key.namespace()).resource(new SecretBuilder()
                    .withNewMetadata().withName(OidcClientSpec.secretName(key)).withNamespace(key.namespace())
                    .withLabels(labels).endMetadata()
                    .withType("Opaque").withData(data).build()).create();
        } else if (!ours(live, key)) {
            throw new ForeignSecretException(OidcClientSpec.secretName(key), managedBy);
        } else if (!data.equals(live.getData()) || !labels.equals(live.getMetadata().getLabels())) {
            live.setData(data);
            live.setStringData(null);
            live.getMetadata().setLabels(labels);
            kube.secrets().inNamespace(key.namespace()).resource(live).update();
        }
    }

    public void delete(InstanceKey key) {
        Secret live = kube.secrets().inNamespace(key.namespace()).withName(OidcClientSpec.secretName(key)).get();
        if (live != null && ours(live, key)) {
            kube.secrets().inNamespace(key.namespace()).resource(live).delete();
        }
    }

    private boolean ours(Secret live, InstanceKey key) {
        Map<String, String> labels = live.getMetadata().getLabels() == null ? Map.of() : live.getMetadata().getLabels();
        return managedBy.equals(labels.get(Labels.MANAGED_BY)) && key.name().equals(labels.get(Labels.INSTANCE));
    }

    private static String b64(String value) {
        return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }
}
