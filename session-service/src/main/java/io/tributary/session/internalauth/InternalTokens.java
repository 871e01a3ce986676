package io.tributary.session.internalauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Tells which role ({@link InternalRole}) a presented internal token belongs to, in constant time: the presented
 * token and every role's token are compared as SHA-256 digests (same length whatever was sent, so the time says
 * nothing about the length either), with {@link MessageDigest#isEqual}, and every role's token is compared on every
 * call (no early return on a match), so the time does not tell a wrong token from another role's.
 */
public final class InternalTokens {

    private final Map<InternalRole, byte[]> digests = new EnumMap<>(InternalRole.class);
    private final BiPredicate<byte[], byte[]> equal;

    /** @param tokens every role's token; the tokens must differ, or a caller's role would be ambiguous */
    public InternalTokens(Map<InternalRole, String> tokens) {
        this(tokens, MessageDigest::isEqual);
    }

    /** @param equal the digest comparison: {@link MessageDigest#isEqual}, observed by the tests */
    InternalTokens(Map<InternalRole, String> tokens, BiPredicate<byte[], byte[]> equal) {
        this.equal = equal;
        for (InternalRole role : InternalRole.values()) {
            String token = tokens.get(role);
            if (token == null || token.isEmpty()) {
                throw new IllegalArgumentException("no internal token for the " + role.label() + " role");
            }
            byte[] digest = digest(token);
            for (Map.Entry<InternalRole, byte[]> other : digests.entrySet()) {
                if (MessageDigest.isEqual(other.getValue(), digest)) {
                    throw new IllegalArgumentException(role.variable() + " and "
                            + other.getKey().variable() + " are the same token: each role needs its own");
                }
            }
            digests.put(role, digest);
        }
    }

    /** The role whose token was presented; empty for no token or an unknown one. */
    public Optional<InternalRole> roleOf(String presented) {
        if (presented == null) {
            return Optional.empty();
        }
        byte[] digest = digest(presented);
        InternalRole match = null;
        for (Map.Entry<InternalRole, byte[]> role : digests.entrySet()) {
            // Every role is compared, a match or not: no early return.
            if (equal.test(role.getValue(), digest)) {
                match = role.getKey();
            }
        }
        return Optional.ofNullable(match);
    }

    static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }

    /** Never the tokens nor their digests. */
    @Override
    public String toString() {
        return "InternalTokens[roles=" + digests.keySet() + "]";
    }
}
