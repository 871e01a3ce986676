package io.tributary.it.security;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.json.JsonMapper;

/**
 * JWTs and key files as an independent issuer makes them: JDK cryptography and JSON only (RFC 7515 compact
 * serialization, RFC 7518 algorithms), not the library the broker verifies them with, so a mistake shared by both
 * sides cannot pass unnoticed.
 */
final class TestTokens {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    private TestTokens() {}

    /** Claims with {@code sub} and {@code exp} (seconds since the epoch), more added by the caller. */
    static Map<String, Object> claims(String subject, long expEpochSeconds) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", subject);
        claims.put("exp", expEpochSeconds);
        return claims;
    }

    static Map<String, Object> acl(List<String> publish, List<String> subscribe) {
        return Map.of("publish", publish, "subscribe", subscribe);
    }

    static String hs256(String secret, Map<String, Object> claims) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            String signingInput = signingInput(header("HS256", null), claims);
            return signingInput + "."
                    + URL.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String rs256(PrivateKey key, String keyId, Map<String, Object> claims) {
        return signed("RS256", "SHA256withRSA", key, keyId, claims);
    }

    /** ES256: the JWS signature is R || S (RFC 7518 section 3.4), which the P1363 format of the JDK gives. */
    static String es256(PrivateKey key, String keyId, Map<String, Object> claims) {
        return signed("ES256", "SHA256withECDSAinP1363Format", key, keyId, claims);
    }

    private static String signed(
            String alg, String jdkAlgorithm, PrivateKey key, String keyId, Map<String, Object> claims) {
        try {
            String signingInput = signingInput(header(alg, keyId), claims);
            Signature signature = Signature.getInstance(jdkAlgorithm);
            signature.initSign(key);
            signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + URL.encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> header(String alg, String keyId) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", alg);
        header.put("typ", "JWT");
        if (keyId != null) {
            header.put("kid", keyId);
        }
        return header;
    }

    private static String signingInput(Map<String, Object> header, Map<String, Object> claims) {
        return URL.encodeToString(JSON.writeValueAsBytes(header)) + "."
                + URL.encodeToString(JSON.writeValueAsBytes(claims));
    }

    static KeyPair rsaKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    static KeyPair ecKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** What {@code openssl pkey -pubout} writes: the SubjectPublicKeyInfo in PEM. */
    static String publicKeyPem(KeyPair pair) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(pair.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }

    /** A JWKS document (RFC 7517) with one P-256 public key. */
    static String ecJwks(KeyPair pair, String keyId) {
        ECPublicKey key = (ECPublicKey) pair.getPublic();
        Map<String, Object> jwk = new LinkedHashMap<>();
        jwk.put("kty", "EC");
        jwk.put("crv", "P-256");
        jwk.put("kid", keyId);
        jwk.put("use", "sig");
        jwk.put("x", URL.encodeToString(coordinate(key.getW().getAffineX())));
        jwk.put("y", URL.encodeToString(coordinate(key.getW().getAffineY())));
        return JSON.writeValueAsString(Map.of("keys", List.of(jwk)));
    }

    /** A P-256 coordinate as exactly 32 big-endian bytes (RFC 7518 section 6.2.1.2). */
    private static byte[] coordinate(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length == 32) {
            return bytes;
        }
        byte[] out = new byte[32];
        if (bytes.length > 32) {
            // a leading sign byte
            return Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length);
        }
        System.arraycopy(bytes, 0, out, 32 - bytes.length, bytes.length);
        return out;
    }
}
