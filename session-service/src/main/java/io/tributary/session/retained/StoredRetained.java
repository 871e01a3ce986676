package io.tributary.session.retained;

import io.tributary.common.session.SubscribeApi;
import java.time.Instant;
import java.util.List;

/** One row of {@code retained_messages}. */
public record StoredRetained(
        String topic,
        byte[] payload,
        int qos,
        List<SubscribeApi.Header> headers,
        Instant expiresAt,
        Instant updatedAt) {

    public SubscribeApi.RetainedMessage toApi() {
        return new SubscribeApi.RetainedMessage(topic, payload, qos, headers);
    }
}
