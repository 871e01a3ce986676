package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.tributary.session.presence.Presence;
import io.tributary.session.presence.PresenceStore;
import io.tributary.session.support.PresenceReader;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Presence in Redis is advisory and never on a request's path (issue 33): a CONNECT is answered without waiting for
 * Redis, and because nothing waits, writes may land in any order, so the end of a connection must win over a late
 * write of the same connection.
 */
@Order(3) // before OutageIntegrationTest stops the shared engines
class PresenceIntegrationTest extends ServiceTestBase {

    /** Shorter than the command timeout (2 s): a CONNECT that waited for Redis would be answered after it. */
    private static final long PAUSE_MILLIS = 1_800;

    @Autowired
    PresenceStore presence;

    @Test
    void a_connect_is_answered_without_waiting_for_its_presence_write() throws Exception {
        connect("pr-warm", "node-a", true, 0);
        // Redis holds every write (presence is written by a script) until the pause ends; reads go on.
        redis.sync()
                .dispatch(
                        CommandType.CLIENT,
                        new StatusOutput<>(StringCodec.UTF8),
                        new CommandArgs<>(StringCodec.UTF8)
                                .add("PAUSE")
                                .add(PAUSE_MILLIS)
                                .add("WRITE"));
        long epoch;
        try {
            epoch = connect("pr-fast", "node-a", true, 0).epoch();
            assertThat(redis.sync().hgetall(PresenceStore.key("pr-fast")))
                    .as("presence when the CONNECT was answered (Redis still paused)")
                    .isEmpty();
        } finally {
            client("UNPAUSE");
        }
        assertThat(PresenceReader.atEpoch(redis, "pr-fast", epoch)).containsEntry("node", "node-a");
    }

    private static void client(String... args) {
        CommandArgs<String, String> arguments = new CommandArgs<>(StringCodec.UTF8);
        for (String a : args) {
            arguments.add(a);
        }
        redis.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8), arguments);
    }

    @Test
    void a_presence_write_that_lands_after_its_connection_ended_is_ignored() {
        presence.removeIfEpoch("pr-late", 7);
        presence.recordAll(Map.of("pr-late", new Presence("node-a", 7, Instant.now())));
        // One connection, so a later write lands after both: once it is there, so are they.
        presence.recordAll(Map.of("pr-barrier", new Presence("node-a", 1, Instant.now())));
        PresenceReader.atEpoch(redis, "pr-barrier", 1);

        assertThat(redis.sync().hgetall(PresenceStore.key("pr-late")))
                .as("the ended connection's tombstone")
                .containsExactly(Map.entry("epoch", "7"));
        assertThat(redis.sync().ttl(PresenceStore.key("pr-late"))).isPositive();
    }

    @Test
    void a_newer_connection_replaces_the_tombstone_and_an_older_end_leaves_it() {
        presence.removeIfEpoch("pr-back", 3);
        presence.recordAll(Map.of("pr-back", new Presence("node-b", 4, Instant.now())));
        presence.removeIfEpoch("pr-back", 3);
        PresenceReader.atEpoch(redis, "pr-back", 4);
        presence.recordAll(Map.of("pr-barrier-2", new Presence("node-a", 1, Instant.now())));
        PresenceReader.atEpoch(redis, "pr-barrier-2", 1);

        assertThat(redis.sync().hgetall(PresenceStore.key("pr-back")))
                .containsEntry("node", "node-b")
                .containsEntry("epoch", "4");
        assertThat(redis.sync().ttl(PresenceStore.key("pr-back")))
                .as("a connected client's presence does not expire")
                .isEqualTo(-1);
    }
}
