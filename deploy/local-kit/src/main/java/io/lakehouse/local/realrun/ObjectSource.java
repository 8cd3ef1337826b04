package io.lakehouse.local.realrun;

import java.util.Map;
import java.util.Optional;

/** Where a pod's Secrets and ConfigMaps come from: the local API server, or a map in tests. */
interface ObjectSource {

  /** The Secret's data, values base64-encoded as the API server holds them. */
  Optional<Map<String, String>> secret(String namespace, String name);

  Optional<Map<String, String>> configMap(String namespace, String name);
}
