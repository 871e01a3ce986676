package io.tributary.devstack.quickstart;

import io.tributary.devstack.secret.SecretFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The quick start's internal API tokens, one per calling role (issue 34, "one token for every caller"): session-service
 * gets both ({@code TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}, {@code TRIBUTARY_INTERNAL_ROUTING_TOKEN}), the transport
 * node and the router each only its own, as {@code TRIBUTARY_INTERNAL_TOKEN}. Each is taken from the environment when
 * given, else generated at the first start of the data directory and kept there (mode 600), like the admin password
 * and the Redis password.
 *
 * @param transport the transport nodes' token
 * @param routing   the routing nodes' token
 */
record InternalTokens(String transport, String routing) {

    static final String TRANSPORT_FILE = "internal-transport-token";
    static final String ROUTING_FILE = "internal-routing-token";

    /** Never the tokens. */
    @Override
    public String toString() {
        return "InternalTokens[transport=(redacted), routing=(redacted)]";
    }

    static InternalTokens of(Map<String, String> env, Path dataDir) {
        return new InternalTokens(
                token(env, "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", dataDir, TRANSPORT_FILE),
                token(env, "TRIBUTARY_INTERNAL_ROUTING_TOKEN", dataDir, ROUTING_FILE));
    }

    private static String token(Map<String, String> env, String variable, Path dataDir, String name) {
        String given = env.get(variable);
        if (given != null && !given.isBlank()) {
            return given;
        }
        Path file = dataDir.toAbsolutePath().resolve(name);
        try {
            Files.createDirectories(dataDir);
            return SecretFile.readOrCreate(file, () -> SecretFile.randomHex(24));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or create the internal token " + file, e);
        }
    }

    /** What {@code service} (QuickstartStack's names) gets: session-service both tokens, the others their own. */
    Map<String, String> environmentOf(String service) {
        return switch (service) {
            case QuickstartStack.SESSION ->
                Map.of("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", transport, "TRIBUTARY_INTERNAL_ROUTING_TOKEN", routing);
            case QuickstartStack.TRANSPORT -> Map.of("TRIBUTARY_INTERNAL_TOKEN", transport);
            case QuickstartStack.ROUTING -> Map.of("TRIBUTARY_INTERNAL_TOKEN", routing);
            default -> throw new IllegalArgumentException("no internal role for " + service);
        };
    }
}
