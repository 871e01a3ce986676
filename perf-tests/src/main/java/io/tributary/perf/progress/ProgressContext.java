package io.tributary.perf.progress;

/**
 * Where one run sits in the command that started it: {@code compare} runs one scenario against several targets in
 * turn, so its time left includes the runs still to come.
 *
 * @param label        printed before the progress ("compare 1/2 tributary"); empty for a single run
 * @param laterSeconds estimated length of what follows this run in the same command
 */
public record ProgressContext(String label, double laterSeconds) {

    public static final ProgressContext SINGLE = new ProgressContext("", 0);

    String prefix() {
        return label.isEmpty() ? "" : label + ": ";
    }
}
