package io.tributary.session.liveness;

import java.time.Duration;
import java.time.Instant;

/** The decisions of node liveness that do not need the database. */
public final class LivenessPolicy {

    private LivenessPolicy() {}

    /**
     * Whether a detector that has been running without failure since {@code healthySince} may declare nodes dead:
     * only after a whole timeout, so that every live node has had the chance to be heard (a restarted or
     * reconnected session-service sees old heartbeats of nodes that were alive all along).
     */
    public static boolean mayDeclare(Instant healthySince, Instant now, Duration nodeTimeout) {
        return healthySince != null && !now.isBefore(healthySince.plus(nodeTimeout));
    }
}
