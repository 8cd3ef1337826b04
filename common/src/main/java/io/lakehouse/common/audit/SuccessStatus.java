package io.lakehouse.common.audit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The status a mutating resource method answers once its change has committed. Declaring it lets the call's audit
 * outcome be written in the change's own transaction ({@link AuditedCall}) instead of one more transaction after the
 * answer; a method without it is audited as before (by the response filter).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SuccessStatus {

    /** The HTTP status of the answer when the change committed (201 for a create, 202 for a deletion started, ...). */
    int value();
}
