package io.tributary.perf.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Reads and writes {@link RunResult} JSON. */
public final class ResultFiles {

    private static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ResultFiles() {}

    public static void write(RunResult result, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.writeString(file, JSON.writeValueAsString(result));
        } catch (JacksonException e) {
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public static RunResult read(Path file) throws IOException {
        try {
            JsonNode tree = JSON.readTree(Files.readString(file));
            int format = tree.path("format").asInt(-1);
            if (format != RunResult.FORMAT) {
                throw new IOException(file + " has result format " + format + ", this tool reads " + RunResult.FORMAT);
            }
            if (tree instanceof ObjectNode fields && !fields.has("stallThresholdMillis")) {
                // Written before stalls were reported: the default threshold (the series is simply absent).
                fields.put("stallThresholdMillis", StallReport.DEFAULT_THRESHOLD_MILLIS);
            }
            return JSON.treeToValue(tree, RunResult.class);
        } catch (JacksonException e) {
            throw new IOException(file + " is not a perf result: " + e.getOriginalMessage(), e);
        }
    }

    public static String toJson(Object value) {
        return JSON.writeValueAsString(value);
    }

    /** {@code dir/NAME.json} to {@code dir/NAME<suffix>}: where the files of one result sit beside it. */
    public static Path beside(Path resultJson, String suffix) {
        return resultJson.resolveSibling(resultJson.getFileName().toString().replaceFirst("\\.json$", "") + suffix);
    }
}
