package io.tributary.devstack.process;

import java.util.ArrayList;
import java.util.List;

/** {@link ProcessSettings} of a child JVM: its maximum heap, its garbage collector and further JVM options. */
public abstract class JvmProcessSettings<B extends JvmProcessSettings<B>> extends ProcessSettings<B> {

    private final List<String> jvmOptions = new ArrayList<>();
    private String heap;
    private String garbageCollector;

    protected JvmProcessSettings(String defaultHeap) {
        this.heap = defaultHeap;
    }

    /** Maximum heap, as for -Xmx (e.g. "512m"). */
    public B heap(String heap) {
        this.heap = heap;
        return self();
    }

    /**
     * The collector flag (e.g. {@code -XX:+UseZGC}); replaces the one set before, so that a builder's default can be
     * overridden without two collectors on one command line. Null: the JVM's own choice.
     */
    public B garbageCollector(String flag) {
        this.garbageCollector = flag;
        return self();
    }

    public B jvmOption(String option) {
        jvmOptions.add(option);
        return self();
    }

    /** Copies these settings, heap and JVM options included, onto another JVM's builder. */
    protected <T extends JvmProcessSettings<T>> T applyJvmTo(T target) {
        target.heap(heap);
        if (garbageCollector != null) {
            target.garbageCollector(garbageCollector);
        }
        jvmOptions.forEach(target::jvmOption);
        return applyTo(target);
    }

    /** {@code -Xmx<heap>}, the collector, then the options in the order they were added. */
    List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + heap);
        if (garbageCollector != null) {
            options.add(garbageCollector);
        }
        options.addAll(jvmOptions);
        return options;
    }
}
