package io.tributary.session.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.session.store.SessionRecord;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConnectPlanTest {

    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    /** An epoch from the sequence, far from the stored ones, so the plan visibly takes it instead of deriving one. */
    private static final long DRAWN = 9_001;

    @Test
    void newClientTakesTheDrawnEpochWithoutSession() {
        ConnectPlan plan = ConnectPlan.of(row(0, false, null, 0, null), true, false, NOW, DRAWN);
        assertThat(plan.newEpoch()).isEqualTo(DRAWN);
        assertThat(plan.sessionPresent()).isFalse();
        assertThat(plan.discardSession()).isTrue();
        assertThat(plan.takeover()).isFalse();
    }

    @Test
    void offlineUnexpiredSessionIsResumed() {
        ConnectPlan plan = ConnectPlan.of(row(4, false, null, 60, NOW.plusSeconds(1)), false, false, NOW, DRAWN);
        assertThat(plan.newEpoch()).isEqualTo(DRAWN);
        assertThat(plan.sessionPresent()).isTrue();
        assertThat(plan.discardSession()).isFalse();
        assertThat(plan.takeover()).isFalse();
    }

    @Test
    void offlineSessionThatNeverExpiresIsResumed() {
        ConnectPlan plan = ConnectPlan.of(row(2, false, null, 0xFFFFFFFFL, null), false, false, NOW, DRAWN);
        assertThat(plan.sessionPresent()).isTrue();
    }

    @Test
    void expiredSessionIsDiscarded() {
        ConnectPlan plan = ConnectPlan.of(row(4, false, null, 60, NOW.minusMillis(1)), false, false, NOW, DRAWN);
        assertThat(plan.sessionPresent()).isFalse();
        assertThat(plan.discardSession()).isTrue();
        assertThat(plan.newEpoch()).isEqualTo(DRAWN);
    }

    @Test
    void cleanStartDiscardsEvenAFreshSession() {
        ConnectPlan plan = ConnectPlan.of(row(4, false, null, 60, NOW.plusSeconds(60)), false, true, NOW, DRAWN);
        assertThat(plan.sessionPresent()).isFalse();
        assertThat(plan.discardSession()).isTrue();
    }

    @Test
    void liveConnectionIsTakenOverAndItsPersistentSessionResumed() {
        ConnectPlan plan = ConnectPlan.of(row(7, true, "node-a", 300, null), false, false, NOW, DRAWN);
        assertThat(plan.takeoverNode()).isEqualTo("node-a");
        assertThat(plan.sessionPresent()).isTrue();
        assertThat(plan.newEpoch()).isEqualTo(DRAWN);
    }

    @Test
    void takenOverSessionWithZeroExpiryEndsWithItsConnection() {
        ConnectPlan plan = ConnectPlan.of(row(7, true, "node-a", 0, null), false, false, NOW, DRAWN);
        assertThat(plan.takeoverNode()).isEqualTo("node-a");
        assertThat(plan.sessionPresent()).isFalse();
        assertThat(plan.discardSession()).isTrue();
    }

    @Test
    void takeoverOnTheSameNodeIsStillATakeover() {
        ConnectPlan plan = ConnectPlan.of(row(1, true, "node-a", 300, null), false, true, NOW, DRAWN);
        assertThat(plan.takeoverNode()).isEqualTo("node-a");
        assertThat(plan.sessionPresent()).isFalse();
    }

    @Test
    void drawnEpochMustBeAboveTheStoredOne() {
        SessionRecord stored = row(DRAWN, true, "node-a", 300, null);
        assertThatThrownBy(() -> ConnectPlan.of(stored, false, false, NOW, DRAWN))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("session_epochs");
        assertThatThrownBy(() -> ConnectPlan.of(stored, false, false, NOW, DRAWN - 1))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ConnectPlan.of(stored, false, false, NOW, DRAWN + 1).newEpoch())
                .isEqualTo(DRAWN + 1);
    }

    private static SessionRecord row(long epoch, boolean connected, String node, long expiry, Instant expiresAt) {
        return new SessionRecord("c", node, epoch, connected, false, expiry, 5, 30, null, null, null, null, expiresAt);
    }
}
