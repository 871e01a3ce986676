package io.tributary.session.metering;

import java.time.Instant;
import java.util.List;

/**
 * A tenant's usage over a range of hours: each hour with any usage, and the sums.
 *
 * @param tenant the tenant id
 * @param from   first hour of the range (inclusive)
 * @param to     end of the range (exclusive)
 * @param hours  the hours of the range with a row, oldest first (hours without usage are left out)
 * @param totals the sums over {@code hours}
 */
public record TenantUsage(String tenant, Instant from, Instant to, List<HourlyUsage> hours, UsageSums totals) {

    /**
     * @param storedByteHours the hourly samples of stored bytes added up: bytes kept times hours
     */
    public record UsageSums(
            long messagesIn,
            long bytesIn,
            long messagesOut,
            long bytesOut,
            long connectionSeconds,
            long storedByteHours) {}

    static TenantUsage of(String tenant, Instant from, Instant to, List<HourlyUsage> hours) {
        long mi = 0, bi = 0, mo = 0, bo = 0, cs = 0, sb = 0;
        for (HourlyUsage h : hours) {
            mi += h.messagesIn();
            bi += h.bytesIn();
            mo += h.messagesOut();
            bo += h.bytesOut();
            cs += h.connectionSeconds();
            sb += h.storedBytes();
        }
        return new TenantUsage(tenant, from, to, hours, new UsageSums(mi, bi, mo, bo, cs, sb));
    }
}
