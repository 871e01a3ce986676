package io.tributary.session.kafka;

/** Kafka did not take the records of a request in time; the request fails (503) and its transaction rolls back. */
public class KafkaUnavailableException extends RuntimeException {

    public KafkaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
