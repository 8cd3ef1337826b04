package io.lakehouse.common.kube;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Secret values as base64 {@code data}: {@code stringData} is only converted by a real API server,
 * not by the mock, and a live Secret always carries {@code data}.
 */
public final class SecretData {

    private SecretData() {}

    public static Map<String, String> encode(Map<String, String> values) {
        Map<String, String> data = new LinkedHashMap<>();
        values.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        return data;
    }
}
