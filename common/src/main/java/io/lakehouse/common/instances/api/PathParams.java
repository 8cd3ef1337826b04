package io.lakehouse.common.instances.api;

import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Names;

/** Path parameters are names: anything else cannot exist. */
public final class PathParams {

    private PathParams() {}

    public static String namespace(String namespace) {
        if (!Names.isDns1123Label(namespace)) {
            throw ApiException.badRequest("'" + namespace + "' is not a valid namespace name");
        }
        return namespace;
    }

    public static String instance(String namespace, String kind, String name) {
        if (!Names.isDns1123Label(name)) {
            throw InstanceService.notFound(namespace, kind, name);
        }
        return name;
    }
}
