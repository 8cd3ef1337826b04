package io.lakehouse.local.realrun;

import java.util.List;
import java.util.Map;

/** One container of a pod, made runnable here: its image, arguments and environment after the rewrites. */
public record LocalPod(String image, List<String> command, List<String> args, Map<String, String> env) {
}
