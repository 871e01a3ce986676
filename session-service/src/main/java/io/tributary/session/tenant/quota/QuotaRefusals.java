package io.tributary.session.tenant.quota;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/** {@code tributary_tenant_quota_refusals_total{tenant,quota}}: what each tenant's quotas refused. */
@Component
public class QuotaRefusals {

    /** The quotas, by their {@code quota} label. */
    public enum Quota {
        CONNECTIONS("connections"),
        SESSIONS("sessions"),
        SUBSCRIPTIONS("subscriptions"),
        CONNECT_RATE("connect_rate"),
        RETAINED("retained");

        private final String label;

        Quota(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final MeterRegistry registry;

    public QuotaRefusals(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one CONNECT, SUBSCRIBE filter or retained message that {@code tenant}'s {@code quota} refused. */
    public void count(String tenant, Quota quota) {
        Counter.builder("tributary.tenant.quota.refusals")
                .description(
                        "CONNECTs, SUBSCRIBE filters and retained messages refused because their tenant's quota was"
                                + " used up")
                .tag("tenant", tenant)
                .tag("quota", quota.label())
                .register(registry)
                .increment();
    }
}
