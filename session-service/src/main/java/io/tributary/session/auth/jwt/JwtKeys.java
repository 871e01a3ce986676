package io.tributary.session.auth.jwt;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys tokens are verified with: an HMAC secret and RSA / EC public keys (from PEM files and a JWKS file), loaded
 * once at start-up. Any problem (a missing file, a key that does not parse, a short secret, no key at all) fails the
 * start with a message naming the setting, rather than refusing every client later.
 *
 * @param hmacSecret null when HS* tokens are not accepted
 * @param publicKeys public RSA and EC keys, each with its key id (PEM: the file name without extension)
 */
public record JwtKeys(byte[] hmacSecret, List<JWK> publicKeys) {

    /** HS256 needs a key of at least its hash size (RFC 7518 section 3.2). */
    public static final int MIN_HMAC_SECRET_BYTES = 32;

    private static final Pattern PEM_BLOCK =
            Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

    public JwtKeys {
        publicKeys = List.copyOf(publicKeys);
    }

    public static JwtKeys load(JwtProperties properties) {
        byte[] secret = null;
        if (properties.hmacSecret() != null) {
            secret = properties.hmacSecret().getBytes(StandardCharsets.UTF_8);
            if (secret.length < MIN_HMAC_SECRET_BYTES) {
                throw new IllegalStateException("TRIBUTARY_JWT_HMAC_SECRET must have at least " + MIN_HMAC_SECRET_BYTES
                        + " bytes (RFC 7518 section 3.2), has " + secret.length);
            }
        }
        List<JWK> keys = new ArrayList<>();
        for (String file : properties.publicKeys()) {
            keys.addAll(readPem(Path.of(file)));
        }
        if (properties.jwksFile() != null) {
            keys.addAll(readJwks(Path.of(properties.jwksFile())));
        }
        if (secret == null && keys.isEmpty()) {
            throw new IllegalStateException("TRIBUTARY_JWT_ENABLED is true but no key is configured: set "
                    + "TRIBUTARY_JWT_HMAC_SECRET, TRIBUTARY_JWT_PUBLIC_KEYS or TRIBUTARY_JWT_JWKS_FILE");
        }
        return new JwtKeys(secret, keys);
    }

    /** Every public key (or certificate's key) of a PEM file, with the file name without extension as key id. */
    static List<JWK> readPem(Path file) {
        String text = read(file, "TRIBUTARY_JWT_PUBLIC_KEYS");
        String keyId = file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
        List<JWK> keys = new ArrayList<>();
        Matcher m = PEM_BLOCK.matcher(text);
        while (m.find()) {
            byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            PublicKey key = switch (m.group(1)) {
                case "PUBLIC KEY" -> publicKey(der, file);
                case "CERTIFICATE" -> certificateKey(der, file);
                default ->
                    throw new IllegalStateException(file + ": a PEM block '" + m.group(1)
                            + "' is not a public key; expected BEGIN PUBLIC KEY or BEGIN CERTIFICATE");
            };
            keys.add(toJwk(key, keyId, file));
        }
        if (keys.isEmpty()) {
            throw new IllegalStateException(file + " (TRIBUTARY_JWT_PUBLIC_KEYS) holds no PEM public key");
        }
        return keys;
    }

    /** The public RSA and EC keys of a JWKS file; private parts, if any were left in it, are dropped. */
    static List<JWK> readJwks(Path file) {
        String text = read(file, "TRIBUTARY_JWT_JWKS_FILE");
        List<JWK> keys;
        try {
            keys = JWKSet.parse(text).toPublicJWKSet().getKeys().stream()
                    .filter(k -> k instanceof RSAKey || k instanceof ECKey)
                    .toList();
        } catch (ParseException e) {
            throw new IllegalStateException(file + " (TRIBUTARY_JWT_JWKS_FILE) is not a JWKS: " + e.getMessage(), e);
        }
        if (keys.isEmpty()) {
            throw new IllegalStateException(file + " (TRIBUTARY_JWT_JWKS_FILE) holds no RSA or EC key");
        }
        return keys;
    }

    private static String read(Path file, String setting) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + " (" + setting + "): " + e, e);
        }
    }

    private static PublicKey publicKey(byte[] der, Path file) {
        for (String algorithm : List.of("RSA", "EC")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not of this type: try the next
            }
        }
        throw new IllegalStateException(file + ": a PUBLIC KEY that is neither RSA nor EC");
    }

    private static PublicKey certificateKey(byte[] der, Path file) {
        try {
            return ((X509Certificate)
                            CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der)))
                    .getPublicKey();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(file + ": a CERTIFICATE that does not parse: " + e.getMessage(), e);
        }
    }

    private static JWK toJwk(PublicKey key, String keyId, Path file) {
        if (key instanceof RSAPublicKey rsa) {
            return new RSAKey.Builder(rsa).keyID(keyId).build();
        }
        if (key instanceof ECPublicKey ec) {
            Curve curve = Curve.forECParameterSpec(ec.getParams());
            if (curve == null) {
                throw new IllegalStateException(file + ": an EC key on a curve JWS does not use (P-256, P-384, P-521)");
            }
            return new ECKey.Builder(curve, ec).keyID(keyId).build();
        }
        throw new IllegalStateException(file + ": a " + key.getAlgorithm() + " key; RSA or EC expected");
    }
}
