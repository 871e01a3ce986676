package io.tributary.devstack.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Echoes the lines appended to a log file to the console, each prefixed with {@code [name]}, like {@code tail -f}.
 */
final class LogFollower extends Thread {

    private final String prefix;
    private final Path file;
    private final long offset;
    private final PrintStream console = System.out;
    private volatile boolean finishing;

    LogFollower(String name, Path file, long offset) {
        super("echo-" + name);
        setDaemon(true);
        this.prefix = "[" + name + "] ";
        this.file = file;
        this.offset = offset;
    }

    /** Prints what is left in the file, then ends. */
    void finish() {
        finishing = true;
        try {
            join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = Files.newInputStream(file)) {
            in.skipNBytes(offset);
            while (true) {
                int read = in.read(buffer);
                if (read < 0) {
                    if (finishing) {
                        break;
                    }
                    Thread.sleep(100);
                    continue;
                }
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        console.println(prefix + line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(buffer[i]);
                    }
                }
            }
            if (line.size() > 0) {
                console.println(prefix + line.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            console.println(prefix + "(log echo stopped: " + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
