package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.domain.InstanceKinds;
import io.lakehouse.access.domain.Subjects;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.validation.Names;

/** Path parameters: checked before anything is read or written. */
final class PathParams {

    private PathParams() {}

    static String namespace(String namespace) {
        if (!Names.isDns1123Label(namespace)) {
            throw ApiException.badRequest("'" + namespace + "' is not a valid namespace name");
        }
        return namespace;
    }

    static Subject subject(String wire) {
        return Subjects.parse(wire).orElseThrow(() -> ApiException.badRequest("subject " + Subjects.describeRule()));
    }

    /** Unknown kind → 404; a kind nobody opens in a browser → 422; a name that cannot exist → 404. */
    static InstanceKey grantable(String namespace, String kind, String name) {
        if (!InstanceKinds.isKnown(kind)) {
            throw ApiException.notFound("unknown instance kind '" + kind + "'");
        }
        if (!InstanceKinds.takesGrants(kind)) {
            throw ApiException.invalid("kind", "'" + kind + "' instances take no grants");
        }
        InstanceKey key = new InstanceKey(namespace, kind, name);
        if (!Names.isDns1123Label(name)) {
            throw GrantService.notFound(key);
        }
        return key;
    }
}
