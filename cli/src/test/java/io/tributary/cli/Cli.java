package io.tributary.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Runs the CLI in-process as {@code main} would, with its own environment, home, stdin and captured output. */
final class Cli {

    record Result(int exit, String out, String err) {}

    private final Map<String, String> env = new HashMap<>();
    private final Path home;
    private String stdin = "";

    Cli(Path home) {
        this.home = home;
    }

    Cli env(String name, String value) {
        env.put(name, value);
        return this;
    }

    Cli stdin(String text) {
        stdin = text;
        return this;
    }

    Config config() {
        return new Config(env, home);
    }

    Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = TributaryCli.run(
                args,
                config(),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out),
                new PrintWriter(err));
        return new Result(exit, out.toString(), err.toString());
    }
}
