package io.lakehouse.sparkjobs.api;

import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Names;

/** Path parameters are names: anything else cannot exist. */
final class PathParams {

    private PathParams() {}

    static String namespace(String namespace) {
        if (!Names.isDns1123Label(namespace)) {
            throw ApiException.badRequest("'" + namespace + "' is not a valid namespace name");
        }
        return namespace;
    }

    static String job(String namespace, String name) {
        if (!Names.isDns1123Label(name)) {
            throw JobService.notFound(namespace, name);
        }
        return name;
    }
}
