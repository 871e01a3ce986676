package io.tributary.devstack.process;

import java.io.File;
import java.util.Objects;
import java.util.Optional;

/** Looking up executables on the PATH. */
public final class Executables {

    private Executables() {}

    /** The absolute path of the executable as the shell would find it on the PATH. */
    public static Optional<String> find(String executable) {
        String path = Objects.requireNonNullElse(System.getenv("PATH"), "/usr/bin:/bin");
        for (String directory : path.split(File.pathSeparator)) {
            File candidate = new File(directory, executable);
            if (candidate.isFile() && candidate.canExecute()) {
                return Optional.of(candidate.getAbsolutePath());
            }
        }
        return Optional.empty();
    }
}
