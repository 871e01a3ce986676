package io.tributary.perf.scenario;

import java.util.List;

/** A scenario file that cannot be run, with every problem found (not just the first) and where it is. */
public class ScenarioException extends RuntimeException {

    private final List<String> problems;

    public ScenarioException(String source, List<String> problems) {
        super(source + " is not a valid scenario:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
