package io.tributary.devstack.process;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Command lines for child JVMs: the same java binary as this JVM, and, for a main class, this JVM's class path. */
public final class JavaCommand {

    private JavaCommand() {}

    /** {@code java <jvmOptions> -cp <this JVM's class path> <mainClass> <args>}. */
    public static List<String> forMainClass(String mainClass, List<String> jvmOptions, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(currentClassPath());
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /** {@code java <jvmOptions> -jar <jar> <args>}. */
    public static List<String> forJar(Path jar, List<String> jvmOptions, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        command.addAll(args);
        return command;
    }

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * This JVM's class path with absolute entries, so a child started in another directory finds the same classes.
     * Run from the thin executable jar, the class path is that jar alone and its manifest Class-Path brings the rest.
     */
    public static String currentClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
