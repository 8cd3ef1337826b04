package io.lakehouse.common.testing;

import java.util.List;

/** A fixed private CA certificate (EC P-256, valid until 2126) for golden files with a CA bundle. */
public final class TestCa {

    public static final String PEM = """
            -----BEGIN CERTIFICATE-----
            MIIBnzCCAUWgAwIBAgIUa45UXCsxqJqoshkCZa0Hw4sBFrAwCgYIKoZIzj0EAwIw
            JDEiMCAGA1UEAwwZTGFrZWhvdXNlIFRlc3QgUHJpdmF0ZSBDQTAgFw0yNjEyMDMw
            ODIwNTJaGA8yMTI2MTEwOTA4MjA1MlowJDEiMCAGA1UEAwwZTGFrZWhvdXNlIFRl
            c3QgUHJpdmF0ZSBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABIA1f85b5thl
            hXJWcVa19d+DJZd5x5BqBLnw3tDTP9zsHc1MsCDKFWoyGjkATWSeAWej3vjE1dsb
            6vL/gytl7ImjUzBRMB0GA1UdDgQWBBTx8MA+z/17VUS1yPD+xoq0/MqafjAfBgNV
            HSMEGDAWgBTx8MA+z/17VUS1yPD+xoq0/MqafjAPBgNVHRMBAf8EBTADAQH/MAoG
            CCqGSM49BAMCA0gAMEUCIQDLjhLLH2mjEokwx2S8T0jaadXhwmWJHPBvPC6Rc01c
            MgIgT05AK2k5URmXXgJDtKVsNrfAVpewiHumIHDPaVyKcmI=
            -----END CERTIFICATE-----
            """;

    private TestCa() {}

    /** The bundle as a context carries it. */
    public static List<String> certificates() {
        return io.lakehouse.common.instances.CaBundle.certificates(PEM);
    }
}
