package io.tributary.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Every {@code perf-tests/bin/perf} command the repository runs or documents (the Kubernetes perf Jobs, their
 * script, the benchmark write-ups, the READMEs) still parses: option names, value formats, compare's labelled sides.
 * Placeholders ({@code <pid>}, {@code $(pgrep ...)}, {@code $VAR}) become sample values and {@code ...} is dropped.
 */
class DocumentedCommandsTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern COMMAND =
            Pattern.compile("perf-tests/bin/perf\"? (run|compare|merge|validate|report)" + "(?=\\s|$)[^`\\n]*");

    @Test
    void every_documented_and_scripted_command_line_parses() throws IOException {
        List<String> commands = new ArrayList<>();
        for (String doc : List.of(
                "README.md", "docs/benchmarks.md", "docs/benchmarks-history.md", "perf-tests/scenarios/README.md")) {
            commands.addAll(inCodeBlocks(Files.readString(ROOT.resolve(doc))));
        }
        String script =
                Files.readString(ROOT.resolve("k8s/aws/scripts/perf-run.sh")).replaceAll("(?m)^\\s*#.*$", "");
        commands.addAll(found(joinContinuations(script)));
        commands.addAll(jobCommands(ROOT.resolve("k8s/aws/perf/perf-jobs.yaml")));

        assertThat(commands)
                .as("commands found")
                .hasSizeGreaterThan(25)
                .anyMatch(c -> c.contains("--allow-remote --role subscribers"))
                .anyMatch(c -> c.startsWith("perf-tests/bin/perf merge"));
        for (String command : commands) {
            List<String> args = words(command);
            assertThatCode(() -> check(args.subList(1, args.size())))
                    .as(command + "\n  as " + args)
                    .doesNotThrowAnyException();
        }
    }

    private static void check(List<String> args) {
        Object parsed = CliRun.parsed(args.toArray(String[]::new));
        if (parsed instanceof RunCommand run) {
            run.runOptions();
        } else if (parsed instanceof CompareCommand compare && !compare.targets.isEmpty()) {
            // (a write-up's "compare other.yaml ...   # same options" leaves the sides out)
            CompareSides.parse(compare.targets, compare.brokerPids, compare.brokerPatterns);
        }
    }

    private static List<String> inCodeBlocks(String markdown) {
        StringBuilder code = new StringBuilder();
        boolean in = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                in = !in;
            } else if (in) {
                code.append(line).append('\n');
            }
        }
        return found(joinContinuations(code.toString()));
    }

    @SuppressWarnings("unchecked")
    private static List<String> jobCommands(Path manifest) throws IOException {
        List<String> commands = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(manifest))) {
            if (doc instanceof Map<?, ?> job && "Job".equals(job.get("kind"))) {
                Map<String, Object> spec = (Map<String, Object>)
                        ((Map<String, Object>) ((Map<String, Object>) job.get("spec")).get("template")).get("spec");
                for (Map<String, Object> container : (List<Map<String, Object>>) spec.get("containers")) {
                    for (Object arg : (List<Object>) container.get("args")) {
                        commands.addAll(found(String.valueOf(arg).replaceAll("&&.*", "")));
                    }
                }
            }
        }
        return commands;
    }

    private static String joinContinuations(String text) {
        return text.replaceAll("\\\\\\n\\s*", " ");
    }

    private static List<String> found(String text) {
        List<String> commands = new ArrayList<>();
        Matcher m = COMMAND.matcher(text);
        while (m.find()) {
            commands.add(m.group().replaceFirst("perf\"", "perf").trim());
        }
        return commands;
    }

    /** Shell words of a documented command, placeholders filled in. */
    static List<String> words(String command) {
        String c = command.replaceAll("\\s#.*$", "")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\$\\([^)]*\\)", "4242")
                .replaceAll("<[^>]*>", "4242")
                .replace("\"$SCENARIO\"", "perf-tests/scenarios/fan-out.yaml")
                .replace("\"$TARGET\"", "transport-mqtt:1883")
                .replaceAll("\\$\\{?(\\w+)}?", "$1");
        List<String> words = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)").matcher(c);
        while (m.find()) {
            String w = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            if (!w.equals("...")) {
                words.add(w);
            }
        }
        return words;
    }
}
