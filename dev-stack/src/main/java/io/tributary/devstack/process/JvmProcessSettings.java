package io.tributary.devstack.process;

import java.util.ArrayList;
import java.util.List;

/** {@link ProcessSettings} of a child JVM: its maximum heap and further JVM options. */
public abstract class JvmProcessSettings<B extends JvmProcessSettings<B>> extends ProcessSettings<B> {

    private final List<String> jvmOptions = new ArrayList<>();
    private String heap;

    protected JvmProcessSettings(String defaultHeap) {
        this.heap = defaultHeap;
    }

    /** Maximum heap, as for -Xmx (e.g. "512m"). */
    public B heap(String heap) {
        this.heap = heap;
        return self();
    }

    public B jvmOption(String option) {
        jvmOptions.add(option);
        return self();
    }

    /** Copies these settings, heap and JVM options included, onto another JVM's builder. */
    protected <T extends JvmProcessSettings<T>> T applyJvmTo(T target) {
        target.heap(heap);
        jvmOptions.forEach(target::jvmOption);
        return applyTo(target);
    }

    /** {@code -Xmx<heap>}, then the options in the order they were added. */
    List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + heap);
        options.addAll(jvmOptions);
        return options;
    }
}
