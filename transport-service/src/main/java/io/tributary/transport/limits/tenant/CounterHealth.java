package io.tributary.transport.limits.tenant;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once that a kind of tenant quota lost its cluster-wide counters in Redis, with what holds meanwhile, and once
 * that they answer again; not on every failed lease.
 */
final class CounterHealth implements QuotaLease.Health {

    private static final Logger log = LoggerFactory.getLogger(CounterHealth.class);

    private final String quotas;
    private final String meanwhile;
    private final AtomicBoolean failing = new AtomicBoolean();

    /**
     * @param quotas    which quotas, as the log lines start ("Tenant publish quotas")
     * @param meanwhile what a node does while Redis does not answer
     */
    CounterHealth(String quotas, String meanwhile) {
        this.quotas = quotas;
        this.meanwhile = meanwhile;
    }

    @Override
    public void failed(Throwable error) {
        if (failing.compareAndSet(false, true)) {
            log.warn("{}: Redis does not answer ({}); {} until it does", quotas, error.toString(), meanwhile);
        }
    }

    @Override
    public void answered() {
        if (failing.compareAndSet(true, false)) {
            log.info("{}: Redis answers again, quotas hold across the cluster", quotas);
        }
    }
}
