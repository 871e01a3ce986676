package io.tributary.transport.subscribe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.FastThreadLocal;
import io.tributary.transport.connection.ClientConnection;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The SUBSCRIBEs (or UNSUBSCRIBEs) a client pipelined, which {@link SubscriptionBarrier} let through together,
 * gathered for the rest of the event-loop turn and sent to session-service as one group: in the same batch call, next
 * to each other and in order, and session-service applies a client's requests of one call one after the other. The
 * client so waits about one round trip for the lot instead of one per packet, and they still take effect in the order
 * it sent them. A lone SUBSCRIBE goes at the end of the turn it was read in, as before.
 *
 * <p>A connection's groups follow its earlier session calls ({@link ClientConnection#serialSessionCall}). Event loop
 * only: the groups being gathered are kept per event-loop thread, so an idle connection holds nothing.
 *
 * @param <Q> request
 * @param <R> answer to one request
 */
final class PipelinedCalls<Q, R> {

    private final Function<List<Q>, List<CompletableFuture<R>>> submitAll;

    /** Per event-loop thread: the connections with requests read this turn, in the order they came. */
    private final FastThreadLocal<Map<ClientConnection, Group<Q, R>>> open = new FastThreadLocal<>() {
        @Override
        protected Map<ClientConnection, Group<Q, R>> initialValue() {
            return new IdentityHashMap<>();
        }
    };

    private record Group<Q, R>(List<Q> requests, List<CompletableFuture<R>> answers) {}

    /** @param submitAll sends one connection's group, answers in order (the session client's batch submission) */
    PipelinedCalls(Function<List<Q>, List<CompletableFuture<R>>> submitAll) {
        this.submitAll = submitAll;
    }

    /** On the connection's event loop: {@code request} joins its connection's group of this turn. */
    CompletableFuture<R> submit(ChannelHandlerContext ctx, ClientConnection connection, Q request) {
        Map<ClientConnection, Group<Q, R>> groups = open.get();
        if (groups.isEmpty()) {
            // Runs after the packets already read (and those a settled barrier releases now) have been handled.
            ctx.executor().execute(this::sendAll);
        }
        Group<Q, R> group = groups.computeIfAbsent(connection, c -> new Group<>(new ArrayList<>(), new ArrayList<>()));
        CompletableFuture<R> answer = new CompletableFuture<>();
        group.requests().add(request);
        group.answers().add(answer);
        return answer;
    }

    private void sendAll() {
        Map<ClientConnection, Group<Q, R>> groups = open.get();
        List<Map.Entry<ClientConnection, Group<Q, R>>> ready = new ArrayList<>(groups.entrySet());
        groups.clear();
        for (Map.Entry<ClientConnection, Group<Q, R>> e : ready) {
            send(e.getKey(), e.getValue());
        }
    }

    private void send(ClientConnection connection, Group<Q, R> group) {
        connection.serialSessionCall(() -> {
            List<CompletableFuture<R>> answered = submitted(group.requests());
            return CompletableFuture.allOf(answered.toArray(CompletableFuture[]::new))
                    .handle((ignored, failure) -> answeredInOrder(group, answered));
        });
    }

    private List<CompletableFuture<R>> submitted(List<Q> requests) {
        try {
            return submitAll.apply(requests);
        } catch (RuntimeException e) {
            return requests.stream()
                    .map(q -> CompletableFuture.<R>failedFuture(e))
                    .toList();
        }
    }

    /** Completed in the order sent, so the handler answers the client (SUBACK, UNSUBACK) in that order too. */
    private static <Q, R> Void answeredInOrder(Group<Q, R> group, List<CompletableFuture<R>> answered) {
        for (int i = 0; i < answered.size(); i++) {
            CompletableFuture<R> to = group.answers().get(i);
            answered.get(i).whenComplete((r, e) -> {
                if (e != null) {
                    to.completeExceptionally(e);
                } else {
                    to.complete(r);
                }
            });
        }
        return null;
    }
}
