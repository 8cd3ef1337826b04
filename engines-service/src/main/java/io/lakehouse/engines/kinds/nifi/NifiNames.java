package io.lakehouse.engines.kinds.nifi;

/** Names, paths and ports of a NiFi instance's objects. */
final class NifiNames {

    static final String APP = "nifi";
    static final String SERVER = "server";
    static final String TLS_SUFFIX = "-tls";
    static final String NIFI_SUFFIX = "-nifi";
    /** The StatefulSet's volume claim template: the PVC is {@code data-<name>-0}. */
    static final String CLAIM = "data";
    static final int HTTPS_PORT = 8443;
    /** {@code NIFI_HOME} of the apache/nifi image. */
    static final String NIFI_HOME = "/opt/nifi/nifi-current";
    static final String TLS_DIR = "/opt/nifi/tls";

    private NifiNames() {}

    /** Keystore, truststore, their password and the CA ({@code ca.crt}) the gateway verifies NiFi with. */
    static String tls(String name) {
        return name + TLS_SUFFIX;
    }

    /** The sensitive properties key, which encrypts passwords stored in the flow. */
    static String nifiSecret(String name) {
        return name + NIFI_SUFFIX;
    }

    /** The only pod of the StatefulSet. */
    static String pod(String name) {
        return name + "-0";
    }

    /** The PVC the StatefulSet controller creates for the pod. */
    static String claim(String name) {
        return CLAIM + "-" + pod(name);
    }

    /** The Service's name inside the cluster: a SAN of the certificate, so clients can verify it. */
    static String serviceHost(String name, String namespace) {
        return name + "." + namespace + ".svc";
    }
}
