package io.lakehouse.access.it;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** access-service whose Keycloak admin calls go through {@link #FORWARDER}: refused until the test opens it. */
public class KeycloakDownTestStack extends KeycloakTestStack {

    static final TcpForwarder FORWARDER = new TcpForwarder(URI.create(KeycloakTestServer.URL).getHost(),
            URI.create(KeycloakTestServer.URL).getPort());

    @Override
    protected Map<String, String> serviceProperties() {
        Map<String, String> props = new HashMap<>(super.serviceProperties());
        props.put("lakehouse.keycloak.url", "http://127.0.0.1:" + FORWARDER.port());
        return props;
    }
}
