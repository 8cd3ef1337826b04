package io.lakehouse.access.unit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a real deployment gets from each service's packaged configuration (the prod profile): nothing
 * pins the issuer to the local token issuer (it comes from QUARKUS_OIDC_AUTH_SERVER_URL's discovery), the
 * API audience and the identity claim are set. Read from the sources: all three services, one rule.
 */
class TokenSettingsTest {

    @ParameterizedTest
    @ValueSource(strings = {"catalog-service", "engines-service", "access-service"})
    void theIssuerIsNotPinnedOutsideDevMode(String service) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(
                Path.of("..", service, "src/main/resources/application.properties"), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        assertThat(p.stringPropertyNames()).filteredOn(k -> k.contains("quarkus.oidc.token.issuer")
                || k.contains("quarkus.oidc.public-key") || k.contains("quarkus.oidc.auth-server-url"))
                .allMatch(k -> k.startsWith("%dev."));
        assertThat(p.getProperty("quarkus.oidc.token.audience")).isEqualTo("lakehouse-api");
        assertThat(p.getProperty("quarkus.oidc.token.principal-claim")).isEqualTo("preferred_username");
    }
}
