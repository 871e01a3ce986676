package io.tributary.session.overview;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * What the admin console's overview reads. Bound from {@code tributary.session.console.*}.
 *
 * @param routingGroup  consumer group of the routing-service instances ({@code TRIBUTARY_ROUTING_GROUP}, the same
 *                      variable routing-service reads), whose members and lag the overview shows
 * @param overviewCache how long one overview answer is reused: any number of open consoles cost PostgreSQL and
 *                      Kafka one read per period
 */
@Validated
@ConfigurationProperties("tributary.session.console")
public record ConsoleProperties(
        @NotBlank String routingGroup, @NotNull Duration overviewCache) {}
