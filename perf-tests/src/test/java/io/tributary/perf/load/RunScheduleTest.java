package io.tributary.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RunScheduleTest {

    private static final Scenario SCENARIO = ScenarioLoader.parse("t", "t", """
            name: t
            warm-up: 5s
            duration: 30s
            drain: 4s
            targets: [127.0.0.1:1883]
            subscribers:
              - {name: s, count: 100, filter: "a/#", ramp: 50}
            publishers:
              - {name: p, count: 100, topic: "a/{n}", rate: 1, ramp: 100}
            """);

    @Test
    void time_left_counts_the_connections_still_to_open_then_each_remaining_phase() {
        AtomicInteger settled = new AtomicInteger();
        RunSchedule schedule = RunSchedule.of(SCENARIO, Role.ALL, settled::get);

        // 200 connections over 2 s + 1 s of ramps, the settle pause, warm-up, duration, drain.
        assertThat(schedule.leftSeconds()).isCloseTo(3 + 2 + 5 + 30 + 4, within(0.1));
        settled.set(200);
        assertThat(schedule.leftSeconds()).isCloseTo(2 + 5 + 30 + 4, within(0.1));
        schedule.enter("measure");
        assertThat(schedule.leftSeconds()).isCloseTo(30 + 4, within(0.1));
        schedule.enter("drain");
        assertThat(schedule.leftSeconds()).isCloseTo(4, within(0.1));
        schedule.enter("closing");
        assertThat(schedule.leftSeconds()).isZero();
        assertThat(schedule.planned()).isEqualTo(200);
    }

    @Test
    void a_split_run_plans_each_side_by_its_own_role() {
        assertThat(RunSchedule.of(SCENARIO, Role.PUBLISHERS, () -> 0).planned()).isEqualTo(100);
        assertThat(RunSchedule.estimatedSeconds(SCENARIO, Role.PUBLISHERS)).isCloseTo(1 + 2 + 5 + 30 + 4, within(0.1));
        // Subscribers wait for the other process's publishers: their ramp, warm-up, duration and drain.
        assertThat(RunSchedule.estimatedSeconds(SCENARIO, Role.SUBSCRIBERS)).isGreaterThan(2 + 1 + 2 + 5 + 30 + 4);
        assertThat(LoadRun.plannedLength(SCENARIO, Role.ALL).toSeconds()).isEqualTo(44);
    }
}
