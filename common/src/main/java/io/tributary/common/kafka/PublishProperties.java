package io.tributary.common.kafka;

import java.util.List;

/**
 * The MQTT 5 properties a publish record carries in its headers, independent of any MQTT library: both the
 * transport (from a PUBLISH or a CONNECT's will) and session-service (a stored will) build publish records from it,
 * so a will published by either is the same record. Also the JSON shape of a will's properties in the internal API.
 *
 * @param payloadFormat        Payload Format Indicator (0 or 1), or null
 * @param messageExpirySeconds Message Expiry Interval as sent (unsigned 32-bit), or null
 * @param userProperties       in their original order; may repeat names
 */
public record PublishProperties(
        Integer payloadFormat,
        String contentType,
        String responseTopic,
        byte[] correlationData,
        Long messageExpirySeconds,
        List<UserProperty> userProperties) {

    public record UserProperty(String name, String value) {}

    public PublishProperties {
        userProperties = userProperties == null ? List.of() : List.copyOf(userProperties);
    }

    public boolean isEmpty() {
        return payloadFormat == null
                && contentType == null
                && responseTopic == null
                && correlationData == null
                && messageExpirySeconds == null
                && userProperties.isEmpty();
    }
}
