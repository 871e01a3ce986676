package io.tributary.routing.fanout;

import io.tributary.common.subscription.SubscriptionRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks the one member of a share group that receives a message (MQTT 5.0 section 4.8.2: each message to exactly
 * one member). Owned by the routing loop thread, like the index: the round-robin counters need no locking.
 */
public final class SharedMemberChooser {

    /** Round-robin counters are forgotten past this many groups, so removed groups cannot grow the map forever. */
    private static final int MAX_COUNTERS = 100_000;

    private final SharedStrategy strategy;
    private final Map<String, Integer> nextByGroup = new HashMap<>();

    public SharedMemberChooser(SharedStrategy strategy) {
        this.strategy = strategy;
    }

    public SharedStrategy strategy() {
        return strategy;
    }

    /**
     * @param group the full shared filter, {@code $share/g/f}
     * @param members the group's online members that want the message, sorted by client id, not empty
     * @param publisherClientId the publisher's client id, {@code null} if unknown (sticky then hashes the topic)
     */
    public SubscriptionRecord choose(
            String group, List<SubscriptionRecord> members, String publisherClientId, String topic) {
        int size = members.size();
        if (size == 1) {
            return members.get(0);
        }
        int index = switch (strategy) {
            case RANDOM -> ThreadLocalRandom.current().nextInt(size);
            case STICKY -> Math.floorMod((publisherClientId != null ? publisherClientId : topic).hashCode(), size);
            case ROUND_ROBIN -> nextTurn(group, size);
        };
        return members.get(index);
    }

    private int nextTurn(String group, int size) {
        if (nextByGroup.size() >= MAX_COUNTERS && !nextByGroup.containsKey(group)) {
            nextByGroup.clear();
        }
        int turn = nextByGroup.getOrDefault(group, 0);
        nextByGroup.put(group, turn + 1 == Integer.MAX_VALUE ? 0 : turn + 1);
        return Math.floorMod(turn, size);
    }
}
