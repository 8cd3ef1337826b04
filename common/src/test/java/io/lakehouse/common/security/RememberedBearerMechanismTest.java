package io.lakehouse.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RememberedBearerMechanismTest {

    @Test
    void onlyABearerHeaderGivesAToken() {
        assertThat(RememberedBearerMechanism.bearerToken("Bearer abc.def.ghi")).isEqualTo("abc.def.ghi");
        assertThat(RememberedBearerMechanism.bearerToken("bearer abc")).isEqualTo("abc");
        assertThat(RememberedBearerMechanism.bearerToken(null)).isNull();
        assertThat(RememberedBearerMechanism.bearerToken("Bearer ")).isNull();
        assertThat(RememberedBearerMechanism.bearerToken("Basic YWxpY2U6YWxpY2U=")).isNull();
        assertThat(RememberedBearerMechanism.bearerToken("Bearerabc")).isNull();
    }
}
