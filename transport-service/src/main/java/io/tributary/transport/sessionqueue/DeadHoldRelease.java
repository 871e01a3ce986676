package io.tributary.transport.sessionqueue;

import io.tributary.sessionqueue.QueueHold;
import io.tributary.transport.connection.ClientConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replay whose node died mid-way leaves its hold of the session queue until the hold's time runs out, and routing
 * keeps appending behind it: when the session connects again, this moves what was held into the queue once the hold
 * has run out (nothing is lost), trying again while it has not. Event loop; Redis answers are handed back to it.
 */
final class DeadHoldRelease {

    private static final Logger log = LoggerFactory.getLogger(DeadHoldRelease.class);

    private final QueueHold hold;
    private final Duration holdTtl;

    DeadHoldRelease(QueueHold hold, Duration holdTtl) {
        this.hold = hold;
        this.holdTtl = holdTtl;
    }

    /** @param moved told (on the event loop) when held entries were moved into the queue */
    void release(ClientConnection connection, Runnable moved) {
        if (!connection.channel().isActive()) {
            return;
        }
        hold.release(connection.clientId(), null, holdTtl)
                .whenComplete((released, error) -> connection
                        .channel()
                        .eventLoop()
                        .execute(() -> {
                            if (!connection.channel().isActive()) {
                                return;
                            }
                            if (error != null) {
                                // Tried again at the next connection; until then routing keeps the held entries.
                                log.warn(
                                        "Could not release a replay's hold of the session queue of '{}': {}",
                                        connection.clientId(),
                                        error.toString());
                                return;
                            }
                            if (!released.done()) {
                                connection
                                        .channel()
                                        .eventLoop()
                                        .schedule(
                                                () -> release(connection, moved),
                                                released.stillHeldMillis() + 50,
                                                TimeUnit.MILLISECONDS);
                                return;
                            }
                            if (released.moved() > 0) {
                                log.info(
                                        "Queue of '{}': {} entries held by an ended replay moved into the queue",
                                        connection.clientId(),
                                        released.moved());
                                moved.run();
                            }
                        }));
    }
}
