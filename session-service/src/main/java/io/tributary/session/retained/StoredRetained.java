package io.tributary.session.retained;

import io.tributary.common.session.SessionApi;
import java.time.Instant;
import java.util.List;

/** One row of {@code retained_messages}. */
public record StoredRetained(
        String topic, byte[] payload, int qos, List<SessionApi.Header> headers, Instant expiresAt, Instant updatedAt) {

    public SessionApi.RetainedMessage toApi() {
        return new SessionApi.RetainedMessage(topic, payload, qos, headers);
    }
}
