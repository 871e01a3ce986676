package io.tributary.session.auth.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JwtVerifierTest {

    private static final String SECRET = "a-test-secret-of-more-than-32-bytes!";
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private static JwtProperties settings(String issuer, String audience) {
        return new JwtProperties(true, SECRET, List.of(), null, issuer, audience, "sub", "client_id", "acl", SKEW);
    }

    private static JwtVerifier hmacVerifier(String issuer, String audience) {
        return new JwtVerifier(
                new JwtKeys(SECRET.getBytes(StandardCharsets.UTF_8), List.of()), settings(issuer, audience), CLOCK);
    }

    private static JWTClaimsSet.Builder claims(String subject, Instant exp) {
        return new JWTClaimsSet.Builder().subject(subject).expirationTime(Date.from(exp));
    }

    private static byte[] sign(JWSSigner signer, JWSHeader header, JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(header, claims);
        jwt.sign(signer);
        return jwt.serialize().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hs256(String secret, JWTClaimsSet claims) throws JOSEException {
        return sign(new MACSigner(secret), new JWSHeader(JWSAlgorithm.HS256), claims);
    }

    private static String causeOf(Runnable verification) {
        try {
            verification.run();
        } catch (TokenRefusedException e) {
            return e.metricCause();
        }
        throw new AssertionError("token accepted");
    }

    @Test
    void a_valid_hmac_token_gives_its_subject_acl_and_the_end_of_its_validity() throws Exception {
        Instant exp = NOW.plusSeconds(600);
        byte[] token = hs256(
                SECRET,
                claims("meter-owner", exp)
                        .claim("client_id", "meter-42")
                        .claim("acl", Map.of("publish", List.of("meters/%c/#"), "subscribe", List.of("commands/%c/+")))
                        .build());

        VerifiedToken verified =
                hmacVerifier(JwtProperties.ANY, JwtProperties.ANY).verify(token, "meter-owner", "meter-42");

        assertThat(verified.subject()).isEqualTo("meter-owner");
        assertThat(verified.acceptedUntil()).isEqualTo(exp.plus(SKEW));
        assertThat(verified.acl().publish()).containsExactly("meters/%c/#");
        assertThat(verified.acl().subscribe()).containsExactly("commands/%c/+");
        // MQTT 5 allows a password without a user name: the subject is the identity then.
        assertThat(hmacVerifier(JwtProperties.ANY, JwtProperties.ANY)
                        .verify(token, null, "meter-42")
                        .subject())
                .isEqualTo("meter-owner");
    }

    @Test
    void a_token_without_acl_claim_has_none_and_a_missing_list_allows_nothing() throws Exception {
        JwtVerifier verifier = hmacVerifier(JwtProperties.ANY, JwtProperties.ANY);
        assertThat(verifier.verify(
                                hs256(SECRET, claims("u", NOW.plusSeconds(60)).build()), "u", "c")
                        .acl())
                .isNull();
        VerifiedToken publishOnly = verifier.verify(
                hs256(
                        SECRET,
                        claims("u", NOW.plusSeconds(60))
                                .claim("acl", Map.of("publish", List.of("a/#")))
                                .build()),
                "u",
                "c");
        assertThat(publishOnly.acl().subscribe()).isEmpty();
    }

    @Test
    void expiry_is_required_and_enforced_with_the_clock_skew() throws Exception {
        JwtVerifier verifier = hmacVerifier(JwtProperties.ANY, JwtProperties.ANY);
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", NOW.minusSeconds(31)).build()), "u", "c")))
                .isEqualTo("token_expired");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", NOW.minus(SKEW)).build()), "u", "c")))
                .as("exp + skew == now: no longer valid (RFC 7519 4.1.4: now must be before exp)")
                .isEqualTo("token_expired");
        // Within the skew: the issuer's clock may be ahead of ours.
        assertThat(verifier.verify(
                                hs256(SECRET, claims("u", NOW.minusSeconds(10)).build()), "u", "c")
                        .acceptedUntil())
                .isEqualTo(NOW.plusSeconds(20));
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(new JWTClaimsSet.Builder().subject("u").build()), "u", "c")))
                .isEqualTo("token_no_expiry");
    }

    @Test
    void not_before_is_honoured_with_the_clock_skew() throws Exception {
        JwtVerifier verifier = hmacVerifier(JwtProperties.ANY, JwtProperties.ANY);
        Instant exp = NOW.plusSeconds(600);
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .notBeforeTime(Date.from(NOW.plusSeconds(31)))
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_not_yet_valid");
        assertThat(verifier.verify(
                                hs256(
                                        SECRET,
                                        claims("u", exp)
                                                .notBeforeTime(Date.from(NOW.plusSeconds(29)))
                                                .build()),
                                "u",
                                "c")
                        .subject())
                .isEqualTo("u");
    }

    @Test
    void a_wrong_secret_or_a_changed_payload_is_a_bad_signature() throws Exception {
        JwtVerifier verifier = hmacVerifier(JwtProperties.ANY, JwtProperties.ANY);
        byte[] otherSecret = hs256(
                "another-secret-of-more-than-32-bytes",
                claims("u", NOW.plusSeconds(60)).build());
        assertThat(causeOf(() -> verifier.verify(otherSecret, "u", "c"))).isEqualTo("token_bad_signature");

        String good = new String(hs256(SECRET, claims("u", NOW.plusSeconds(60)).build()), StandardCharsets.UTF_8);
        String[] parts = good.split("\\.");
        String forgedPayload = new String(
                        hs256(SECRET, claims("admin", NOW.plusSeconds(60)).build()), StandardCharsets.UTF_8)
                .split("\\.")[1];
        byte[] forged = (parts[0] + "." + forgedPayload + "." + parts[2]).getBytes(StandardCharsets.UTF_8);
        assertThat(causeOf(() -> verifier.verify(forged, "admin", "c"))).isEqualTo("token_bad_signature");
    }

    @Test
    void issuer_and_audience_are_checked_when_configured() throws Exception {
        JwtVerifier verifier = hmacVerifier("https://issuer.example", "tributary");
        Instant exp = NOW.plusSeconds(60);
        byte[] good = hs256(
                SECRET,
                claims("u", exp)
                        .issuer("https://issuer.example")
                        .audience(List.of("other", "tributary"))
                        .build());
        assertThat(verifier.verify(good, "u", "c").subject()).isEqualTo("u");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .issuer("https://issuer.example")
                                .audience("other")
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_wrong_audience");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .issuer("https://issuer.example")
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_wrong_audience");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .issuer("https://evil.example")
                                .audience("tributary")
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_wrong_issuer");
    }

    @Test
    void the_token_binds_user_name_and_client_id() throws Exception {
        JwtVerifier verifier = hmacVerifier(JwtProperties.ANY, JwtProperties.ANY);
        byte[] token = hs256(
                SECRET,
                claims("alice", NOW.plusSeconds(60)).claim("client_id", "dev-1").build());
        assertThat(causeOf(() -> verifier.verify(token, "bob", "dev-1"))).isEqualTo("token_username_mismatch");
        assertThat(causeOf(() -> verifier.verify(token, "alice", "dev-2"))).isEqualTo("token_client_id_mismatch");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(new JWTClaimsSet.Builder()
                                .expirationTime(Date.from(NOW.plusSeconds(60)))
                                .build()),
                        null,
                        "c")))
                .isEqualTo("token_no_subject");
    }

    @Test
    void acl_claims_are_checked_like_credential_acls() throws Exception {
        JwtVerifier verifier = hmacVerifier(JwtProperties.ANY, JwtProperties.ANY);
        Instant exp = NOW.plusSeconds(60);
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(
                                claims("u", exp).claim("acl", "everything").build()),
                        "u",
                        "c")))
                .isEqualTo("token_bad_acl");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .claim("acl", Map.of("subscribe", List.of("$share/g/#")))
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_bad_acl");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .claim("acl", Map.of("publish", List.of("a/%x/b")))
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_bad_acl");
        assertThat(causeOf(() -> verifier.verify(
                        uncheckedHs256(claims("u", exp)
                                .claim("acl", Map.of("publish", List.of("a/#/b")))
                                .build()),
                        "u",
                        "c")))
                .isEqualTo("token_bad_acl");
    }

    @Test
    void rsa_keys_are_chosen_by_key_id_and_an_unknown_key_id_is_refused() throws Exception {
        KeyPair pair = rsa();
        KeyPair other = rsa();
        List<JWK> keys = List.of(
                new RSAKey.Builder((RSAPublicKey) other.getPublic())
                        .keyID("old")
                        .build(),
                new RSAKey.Builder((RSAPublicKey) pair.getPublic())
                        .keyID("current")
                        .build());
        JwtVerifier verifier =
                new JwtVerifier(new JwtKeys(null, keys), settings(JwtProperties.ANY, JwtProperties.ANY), CLOCK);
        RSASSASigner signer = new RSASSASigner(pair.getPrivate());
        JWTClaimsSet claims = claims("u", NOW.plusSeconds(60)).build();

        assertThat(verifier.verify(sign(signer, header(JWSAlgorithm.RS256, "current"), claims), "u", "c")
                        .subject())
                .isEqualTo("u");
        assertThat(verifier.verify(sign(signer, header(JWSAlgorithm.PS384, "current"), claims), "u", "c")
                        .subject())
                .isEqualTo("u");
        // Without a key id every RSA key is tried.
        assertThat(verifier.verify(sign(signer, new JWSHeader(JWSAlgorithm.RS512), claims), "u", "c")
                        .subject())
                .isEqualTo("u");
        assertThat(causeOf(() ->
                        verifier.verify(signUnchecked(signer, header(JWSAlgorithm.RS256, "old"), claims), "u", "c")))
                .isEqualTo("token_bad_signature");
        assertThat(causeOf(() ->
                        verifier.verify(signUnchecked(signer, header(JWSAlgorithm.RS256, "nope"), claims), "u", "c")))
                .isEqualTo("token_unknown_key");
        // No HMAC secret configured: an HS256 token cannot be checked, whatever it says.
        assertThat(causeOf(() -> verifier.verify(uncheckedHs256(claims), "u", "c")))
                .isEqualTo("token_algorithm");
    }

    @Test
    void ec_keys_verify_es256_and_reject_another_key() throws Exception {
        KeyPair pair = ec();
        KeyPair other = ec();
        JWK key = new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                .keyID("ec-1")
                .build();
        JwtVerifier verifier =
                new JwtVerifier(new JwtKeys(null, List.of(key)), settings(JwtProperties.ANY, JwtProperties.ANY), CLOCK);
        JWTClaimsSet claims = claims("u", NOW.plusSeconds(60)).build();

        assertThat(verifier.verify(
                                sign(
                                        new ECDSASigner((ECPrivateKey) pair.getPrivate()),
                                        header(JWSAlgorithm.ES256, "ec-1"),
                                        claims),
                                "u",
                                "c")
                        .subject())
                .isEqualTo("u");
        ECDSASigner otherSigner = new ECDSASigner((ECPrivateKey) other.getPrivate());
        assertThat(causeOf(() -> verifier.verify(
                        signUnchecked(otherSigner, header(JWSAlgorithm.ES256, "ec-1"), claims), "u", "c")))
                .isEqualTo("token_bad_signature");
    }

    @Test
    void unsigned_tokens_are_tokens_and_refused_while_other_passwords_are_not_tokens() {
        String plain = new PlainJWT(claims("u", NOW.plusSeconds(60)).build()).serialize();
        assertThat(JwtVerifier.isToken(plain.getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(causeOf(() -> hmacVerifier(JwtProperties.ANY, JwtProperties.ANY)
                        .verify(plain.getBytes(StandardCharsets.UTF_8), "u", "c")))
                .isEqualTo("token_unsigned");
        for (String password : List.of("s3cret", "a.b.c", "x.y", "", "eyJhbGciOiJIUzI1NiJ9")) {
            assertThat(JwtVerifier.isToken(password.getBytes(StandardCharsets.UTF_8)))
                    .as(password)
                    .isFalse();
        }
        assertThat(JwtVerifier.isToken(null)).isFalse();
    }

    private static JWSHeader header(JWSAlgorithm alg, String keyId) {
        return new JWSHeader.Builder(alg).keyID(keyId).build();
    }

    private static byte[] uncheckedHs256(JWTClaimsSet claims) {
        return signUnchecked(macSigner(), new JWSHeader(JWSAlgorithm.HS256), claims);
    }

    private static MACSigner macSigner() {
        try {
            return new MACSigner(SECRET);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] signUnchecked(JWSSigner signer, JWSHeader header, JWTClaimsSet claims) {
        try {
            return sign(signer, header, claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    static KeyPair ec() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    @Test
    void enabled_without_an_issuer_or_an_audience_stops_the_start_and_star_accepts_any_on_purpose() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> settings(null, "tributary"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TRIBUTARY_JWT_ISSUER");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> settings("https://issuer.example", " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TRIBUTARY_JWT_AUDIENCE");
        JwtProperties any = settings(JwtProperties.ANY, JwtProperties.ANY);
        assertThat(any.requiredIssuer()).isNull();
        assertThat(any.requiredAudience()).isNull();
        JwtProperties off =
                new JwtProperties(false, null, List.of(), null, null, null, "sub", "client_id", "acl", SKEW);
        assertThat(off.enabled()).as("off: nothing to name").isFalse();
    }
}
