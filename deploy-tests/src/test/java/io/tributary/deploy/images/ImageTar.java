package io.tributary.deploy.images;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An image tarball as {@code jib:buildTar} writes it (the docker-archive format of {@code docker save}:
 * {@code manifest.json}, the config JSON and one compressed tar per layer). Reads the small JSON entries and the
 * names and sizes of all entries; plain ustar/GNU headers, which is what Jib writes.
 */
public record ImageTar(Map<String, Long> entrySizes, JsonObject manifest, JsonObject config) {

    public static ImageTar read(Path tar) {
        Map<String, Long> sizes = new LinkedHashMap<>();
        Map<String, byte[]> jsons = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(tar)) {
            byte[] header = new byte[512];
            String longName = null;
            while (in.readNBytes(header, 0, 512) == 512) {
                if (isZero(header)) {
                    break;
                }
                String name = longName != null ? longName : string(header, 0, 100);
                String prefix = string(header, 345, 155);
                if (longName == null && !prefix.isEmpty()) {
                    name = prefix + "/" + name;
                }
                longName = null;
                long size = Long.parseLong(
                        string(header, 124, 12).trim().isEmpty()
                                ? "0"
                                : string(header, 124, 12).trim(),
                        8);
                char type = (char) header[156];
                long padded = (size + 511) / 512 * 512;
                if (type == 'L') {
                    longName = new String(in.readNBytes((int) size), StandardCharsets.UTF_8).replace("\0", "");
                    in.skipNBytes(padded - size);
                    continue;
                }
                if (name.startsWith("./")) {
                    name = name.substring(2);
                }
                sizes.put(name, size);
                if (name.endsWith(".json") && size < 1_000_000) {
                    jsons.put(name, in.readNBytes((int) size));
                    in.skipNBytes(padded - size);
                } else {
                    in.skipNBytes(padded);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + tar, e);
        }
        byte[] manifestBytes = jsons.get("manifest.json");
        if (manifestBytes == null) {
            throw new IllegalStateException(tar + " has no manifest.json (entries: " + sizes.keySet() + ")");
        }
        JsonArray manifests = JsonParser.parseString(new String(manifestBytes, StandardCharsets.UTF_8))
                .getAsJsonArray();
        JsonObject manifest = manifests.get(0).getAsJsonObject();
        byte[] configBytes = jsons.get(manifest.get("Config").getAsString());
        if (configBytes == null) {
            throw new IllegalStateException(tar + ": config " + manifest.get("Config") + " missing");
        }
        JsonObject config = JsonParser.parseString(new String(configBytes, StandardCharsets.UTF_8))
                .getAsJsonObject();
        return new ImageTar(sizes, manifest, config);
    }

    public List<String> repoTags() {
        return strings(manifest.getAsJsonArray("RepoTags"));
    }

    public List<String> layers() {
        return strings(manifest.getAsJsonArray("Layers"));
    }

    /** The {@code config} object of the image config (User, Entrypoint, Env, ExposedPorts, Labels). */
    public JsonObject runConfig() {
        return config.getAsJsonObject("config");
    }

    public String user() {
        JsonElement user = runConfig().get("User");
        return user == null ? "" : user.getAsString();
    }

    public List<String> entrypoint() {
        return strings(runConfig().getAsJsonArray("Entrypoint"));
    }

    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : strings(runConfig().getAsJsonArray("Env"))) {
            int eq = entry.indexOf('=');
            env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        return env;
    }

    public List<String> exposedPorts() {
        JsonObject ports = runConfig().getAsJsonObject("ExposedPorts");
        return ports == null ? List.of() : new ArrayList<>(ports.keySet());
    }

    public Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        JsonObject object = runConfig().getAsJsonObject("Labels");
        if (object != null) {
            object.entrySet().forEach(e -> labels.put(e.getKey(), e.getValue().getAsString()));
        }
        return labels;
    }

    public List<String> diffIds() {
        return strings(config.getAsJsonObject("rootfs").getAsJsonArray("diff_ids"));
    }

    private static List<String> strings(JsonArray array) {
        List<String> result = new ArrayList<>();
        if (array != null) {
            array.forEach(e -> result.add(e.getAsString()));
        }
        return result;
    }

    private static boolean isZero(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static String string(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
    }
}
