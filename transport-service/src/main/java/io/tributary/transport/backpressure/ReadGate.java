package io.tributary.transport.backpressure;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * The one owner of a channel's {@code autoRead}. Several independent reasons stop reading from a client (waiting
 * for session-service at CONNECT, too many of its publishes waiting for Kafka, the node as a whole waiting for
 * Kafka, our writes to it piling up); if each toggled autoRead itself, the first to resume would lift the others'
 * pause. Here reading resumes only when no reason is left. Event-loop only.
 */
public final class ReadGate {

    /** Why reading from a client is paused; each is a bit of the channel's pause mask. */
    public enum Reason {
        /** CONNECT is being decided; later packets wait in the socket. */
        CONNECTING,
        /** A SUBSCRIBE or UNSUBSCRIBE has not taken effect yet; later packets wait (subscribe/SubscriptionBarrier). */
        SUBSCRIBING,
        /** This connection's publishes waiting for Kafka exceed their byte limit. */
        UPLINK_CONNECTION,
        /** The node's publishes waiting for Kafka exceed the node's byte limit. */
        UPLINK_NODE,
        /** Our writes to the client exceed the high water mark: it does not read what it asks for (PUBACKs...). */
        UNWRITABLE;

        int bit() {
            return 1 << ordinal();
        }
    }

    private static final AttributeKey<int[]> PAUSES = AttributeKey.valueOf("tributary.readPauses");

    private ReadGate() {}

    /** Stops reading for {@code reason}; returns true if that reason was not already pausing the channel. */
    public static boolean pause(Channel channel, Reason reason) {
        int[] mask = mask(channel);
        boolean added = (mask[0] & reason.bit()) == 0;
        mask[0] |= reason.bit();
        channel.config().setAutoRead(false);
        return added;
    }

    /** Lifts {@code reason}; reading resumes when no other reason holds. Returns true if it was pausing. */
    public static boolean resume(Channel channel, Reason reason) {
        if (!channel.hasAttr(PAUSES)) {
            // Never paused: no mask to create (an attribute costs 40 bytes per connection).
            channel.config().setAutoRead(true);
            return false;
        }
        int[] mask = mask(channel);
        boolean removed = (mask[0] & reason.bit()) != 0;
        mask[0] &= ~reason.bit();
        if (mask[0] == 0) {
            channel.config().setAutoRead(true);
            // Every connection pauses while it connects; an idle one should not keep the mask (64 bytes) for that.
            channel.attr(PAUSES).getAndRemove();
        }
        return removed;
    }

    public static boolean paused(Channel channel, Reason reason) {
        return channel.hasAttr(PAUSES) && (mask(channel)[0] & reason.bit()) != 0;
    }

    private static int[] mask(Channel channel) {
        int[] mask = channel.attr(PAUSES).get();
        if (mask == null) {
            mask = new int[1];
            channel.attr(PAUSES).set(mask);
        }
        return mask;
    }
}
