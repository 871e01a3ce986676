package io.tributary.transport.replay;

import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.connection.LiveSeam;
import io.tributary.transport.connection.OutboundMessage;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where one replay meets live traffic, for one connection; event loop only.
 *
 * <p>The subscriptions go live (local index) first; this seam is attached in the same event-loop task. Then the
 * history is read up to the publish topic's end offsets {@code E} taken after that moment: a record at offset
 * {@code >= E[p]} was appended after the subscriptions were in effect, so it is routed here live; a record below it
 * is in the history when it matches (or is older than the history asked for). Live deliveries of the replayed
 * filters carry their publish partition and offset ({@code tributary.source}), so:
 * <ul>
 * <li>while the history is being read, they are held;</li>
 * <li>once it is read, held and new ones below {@code E[p]} are dropped (the history has them), the others are
 * held behind the history and delivered after it;</li>
 * <li>once everything held is delivered, those below {@code E[p]} are still dropped (a router lagging behind the
 * SUBSCRIBE routes them late) and the others go straight through.</li>
 * </ul>
 * Nothing is therefore missing at the seam and nothing comes twice.
 */
final class ReplaySeam implements LiveSeam {

    enum State {
        READING,
        DELIVERING,
        DONE
    }

    /** A live delivery held until the history is delivered. */
    record Held(OutboundMessage message, int partition, long offset) {}

    private final Set<String> filters;
    private final ArrayDeque<OutboundMessage> history = new ArrayDeque<>();
    private final ArrayDeque<Held> live = new ArrayDeque<>();
    private Map<Integer, Long> endOffsets = Map.of();
    private State state = State.READING;

    ReplaySeam(Set<String> filters) {
        this.filters = filters;
    }

    Set<String> filters() {
        return filters;
    }

    State state() {
        return state;
    }

    @Override
    public int held() {
        return live.size();
    }

    @Override
    public Verdict onLive(String topic, int partition, long offset) {
        if (!matches(topic)) {
            return Verdict.PASS;
        }
        return switch (state) {
            case READING -> Verdict.HOLD;
            case DELIVERING -> replayed(partition, offset) ? Verdict.DROP : Verdict.HOLD;
            case DONE -> replayed(partition, offset) ? Verdict.DROP : Verdict.PASS;
        };
    }

    @Override
    public void hold(OutboundMessage message, int partition, long offset) {
        live.addLast(new Held(message, partition, offset));
    }

    /** The history is read: it goes out first; held live deliveries it covers are dropped. Returns how many. */
    int historyRead(List<OutboundMessage> messages, Map<Integer, Long> ends) {
        this.endOffsets = ends;
        history.addAll(messages);
        int before = live.size();
        live.removeIf(h -> replayed(h.partition(), h.offset()));
        state = State.DELIVERING;
        return before - live.size();
    }

    @Override
    public OutboundMessage peek() {
        if (state != State.DELIVERING) {
            return null;
        }
        if (!history.isEmpty()) {
            return history.peekFirst();
        }
        if (!live.isEmpty()) {
            return live.peekFirst().message();
        }
        state = State.DONE;
        return null;
    }

    @Override
    public void take() {
        if (history.pollFirst() == null) {
            live.pollFirst();
        }
    }

    @Override
    public boolean done() {
        return state == State.DONE;
    }

    @Override
    public boolean forget(String filter) {
        if (state != State.DONE) {
            return false;
        }
        filters.remove(filter);
        return filters.isEmpty();
    }

    private boolean matches(String topic) {
        for (String filter : filters) {
            if (TopicFilters.matches(filter, topic)) {
                return true;
            }
        }
        return false;
    }

    private boolean replayed(int partition, long offset) {
        Long end = endOffsets.get(partition);
        return offset >= 0 && end != null && offset < end;
    }
}
