package io.tributary.session.internalauth;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The roles that may call an internal endpoint ({@code /internal/**}), on the handler method or on its controller
 * (the method's wins). {@link InternalCallerInterceptor} answers 403 to any other role, and to every role on an
 * internal endpoint that does not say: closed by default.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface InternalCallers {

    InternalRole[] value();
}
