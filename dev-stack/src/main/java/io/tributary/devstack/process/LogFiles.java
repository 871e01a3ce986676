package io.tributary.devstack.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the end of a log file, for failure messages. */
public final class LogFiles {

    private static final int TAIL_WINDOW_BYTES = 64 * 1024;

    private LogFiles() {}

    /** The last {@code lines} lines of the file (fewer if it is shorter); empty when there is no file. */
    public static String tail(Path file, int lines) {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            long start = Math.max(0, length - TAIL_WINDOW_BYTES);
            byte[] bytes = new byte[(int) (length - start)];
            raf.seek(start);
            raf.readFully(bytes);
            String[] all = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
            int end = all.length;
            if (end > 0 && all[end - 1].isEmpty()) {
                end--;
            }
            // The first line of a window that does not start at offset 0 is usually cut: drop it.
            int first = Math.max(start > 0 ? 1 : 0, end - lines);
            return String.join("\n", java.util.Arrays.copyOfRange(all, first, end));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
