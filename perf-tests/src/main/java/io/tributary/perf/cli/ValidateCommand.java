package io.tributary.perf.cli;

import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code perf validate}: checks scenario files without connecting anywhere. */
@Command(name = "validate", description = "Check scenario files and print what they would run.")
final class ValidateCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(paramLabel = "SCENARIO.yaml", arity = "0..*", description = "one or more scenario files")
    List<Path> scenarios = new ArrayList<>();

    @Option(
            names = "--scale",
            paramLabel = "F",
            converter = Converters.PositiveNumber.class,
            defaultValue = "1",
            description = "multiply every group's count by F, as run would")
    double scale = 1;

    @Mixin
    HelpOption help;

    ValidateCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("validate needs one or more scenario files");
        }
        for (Path p : scenarios) {
            Scenario s = ScenarioLoader.load(p).scaled(scale);
            io.out()
                    .printf(
                            Locale.ROOT,
                            "%s: ok — %d connections: %d publishers (%.0f msg/s offered), %d subscribing"
                                    + " clients; warm-up %ds, duration %ds%n",
                            p,
                            s.connectionCount(),
                            s.publisherCount(),
                            s.offeredRate(),
                            s.subscriberCount(),
                            s.warmUp().toSeconds(),
                            s.duration().toSeconds());
        }
        return 0;
    }
}
