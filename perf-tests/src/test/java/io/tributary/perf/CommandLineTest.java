package io.tributary.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class CommandLineTest {

    @Test
    void remote_targets_are_allowed_only_with_the_explicit_flag() {
        CommandLine plain = CommandLine.parse(List.of("run", "s.yaml", "--target", "transport-mqtt:1883"));
        assertThat(plain.runOptions(Path.of("s.yaml")).allowRemote()).isFalse();
        CommandLine allowed = CommandLine.parse(
                List.of("run", "s.yaml", "--target", "transport-mqtt:1883", "--allow-remote", "--no-html"));
        assertThat(allowed.runOptions(Path.of("s.yaml")).allowRemote()).isTrue();
        assertThat(allowed.html).isFalse();
    }
}
