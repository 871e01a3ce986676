package io.tributary.it.support;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/** Prints the tail of every service log when a test fails, so a CI report shows what the broker saw. */
public final class LogsOnFailure implements TestWatcher {

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        try {
            System.err.println("Service logs after failure of " + context.getDisplayName() + ":\n"
                    + TributaryCluster.shared().logTails(40));
        } catch (Exception e) {
            System.err.println("no cluster logs: " + e);
        }
    }
}
