package io.tributary.perf.load;

import io.tributary.perf.client.MqttLoadClient;
import java.util.ArrayList;
import java.util.List;

/**
 * When the publishers of a run start sending. With a warm-up, each starts as soon as it is ready, and what it sends
 * until the measured window opens is delivered but not counted. Without one ({@code warm-up: 0s}), they are held
 * until the measured window opens and then all start together, so the first message any of them sends is measured:
 * the path under test meets the burst cold, as a fleet coming back does.
 */
final class PublishStart {

    private final boolean holdUntilMeasured;
    private final List<MqttLoadClient> held = new ArrayList<>();
    private long anchorNanos;
    private boolean released;

    /** @param anchorNanos the aligned publishers' grid while publishers start as they get ready (System.nanoTime) */
    PublishStart(boolean holdUntilMeasured, long anchorNanos) {
        this.holdUntilMeasured = holdUntilMeasured;
        this.anchorNanos = anchorNanos;
    }

    boolean holdsUntilMeasured() {
        return holdUntilMeasured;
    }

    /** A publisher is connected: it starts now, or when the measured window opens. Called on its event loop. */
    synchronized void ready(MqttLoadClient publisher) {
        if (holdUntilMeasured && !released) {
            held.add(publisher);
        } else {
            publisher.startPublishing(anchorNanos);
        }
    }

    /**
     * Opens the measured window for held publishers: their first sends are due at {@code atNanos} (aligned ones all
     * exactly then), and any publisher ready later starts on the same grid.
     */
    synchronized void release(long atNanos) {
        anchorNanos = atNanos;
        released = true;
        held.forEach(p -> p.startPublishing(atNanos));
        held.clear();
    }
}
