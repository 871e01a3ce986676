package io.tributary.transport.listener;

import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How a transport node hands its clients over when it stops (SIGTERM: a rolling upgrade or a scale-down). Bound from
 * {@code tributary.transport.drain.*}; application.yml maps {@code MQTT_DRAIN_TIMEOUT} and
 * {@code MQTT_SERVER_REFERENCE} onto it.
 *
 * @param timeout         longest the node waits, after closing its listeners and telling every client to go, for
 *                        the connections to close before it stops its event loops (and with them whatever is left);
 *                        the orchestrator's grace period must be longer (docs/deploy.md, "Upgrades")
 * @param serverReference when set, MQTT 5 clients get DISCONNECT 0x9C (use another server) with this Server
 *                        Reference (e.g. the load balancer's name, {@code host:port}) instead of 0x8B (server
 *                        shutting down)
 */
@Validated
@ConfigurationProperties("tributary.transport.drain")
public record DrainProperties(@NotNull Duration timeout, String serverReference) {

    @AssertTrue(message = "tributary.transport.drain.timeout (MQTT_DRAIN_TIMEOUT) must be between 0 and 10 minutes")
    public boolean isTimeoutBounded() {
        return timeout == null || (!timeout.isNegative() && timeout.compareTo(Duration.ofMinutes(10)) <= 0);
    }

    /** The DISCONNECT reason code MQTT 5 clients get. */
    public byte reasonCode() {
        return (hasServerReference() ? Disconnect.USE_ANOTHER_SERVER : Disconnect.SERVER_SHUTTING_DOWN).byteValue();
    }

    public boolean hasServerReference() {
        return serverReference != null && !serverReference.isBlank();
    }
}
