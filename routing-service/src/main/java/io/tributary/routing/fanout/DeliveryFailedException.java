package io.tributary.routing.fanout;

/** Some downlink record of a batch was not acknowledged; the batch must not be committed and is routed again. */
public final class DeliveryFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DeliveryFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
