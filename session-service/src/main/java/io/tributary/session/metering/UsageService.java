package io.tributary.session.metering;

import io.tributary.common.metering.UsageDelta;
import io.tributary.session.tenant.TenantAdminService;
import io.tributary.session.web.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.springframework.stereotype.Service;

/** Reads a tenant's usage for the admin API: range checks, then {@link UsageStore#hours}. */
@Service
public class UsageService {

    private static final Duration DEFAULT_RANGE = Duration.ofHours(24);

    private final UsageStore store;
    private final TenantAdminService tenants;
    private final MeteringProperties properties;
    private final Clock clock;

    public UsageService(UsageStore store, TenantAdminService tenants, MeteringProperties properties, Clock clock) {
        this.store = store;
        this.tenants = tenants;
        this.properties = properties;
        this.clock = clock;
    }

    /** The tenant's hours in {@code [from, to)}; 404 when there is no such tenant, 400 for a bad range. */
    public TenantUsage usage(String tenant, String fromParam, String toParam) {
        tenants.get(tenant);
        Instant to =
                toParam == null ? UsageDelta.hourOf(clock.instant()).plus(Duration.ofHours(1)) : hour("to", toParam);
        Instant from = fromParam == null ? to.minus(DEFAULT_RANGE) : hour("from", fromParam);
        if (!from.isBefore(to)) {
            throw ApiException.badRequest("from (" + from + ") must be before to (" + to + ")");
        }
        Duration max = properties.maxQueryRange();
        if (Duration.between(from, to).compareTo(max) > 0) {
            throw ApiException.badRequest("the range from " + from + " to " + to + " is longer than " + max.toHours()
                    + " hours (TRIBUTARY_METERING_MAX_QUERY_RANGE); ask in parts");
        }
        return TenantUsage.of(tenant, from, to, store.hours(tenant, from, to));
    }

    /** An ISO-8601 instant with an offset ({@code 2026-11-26T13:00:00Z}) that is a whole hour. */
    private static Instant hour(String name, String value) {
        Instant instant;
        try {
            instant = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    name + " must be an ISO-8601 hour such as 2026-11-26T13:00:00Z, not '" + value + "'");
        }
        if (!instant.equals(UsageDelta.hourOf(instant))) {
            throw ApiException.badRequest(name + " must be a whole hour: '" + value + "'");
        }
        return instant;
    }
}
