package io.tributary.session.auth.jwt;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import io.tributary.common.acl.AclPlaceholders;
import io.tributary.common.topic.SharedFilters;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a JWT from a CONNECT password: signature (HMAC secret, or an RSA / EC public key chosen by the header's
 * {@code kid} and algorithm), then {@code exp} (required), {@code nbf}, issuer and audience, then that it names the
 * CONNECT's identity. Pure: keys and settings are given, time comes from the clock. Every refusal is a bad user name
 * or password (MQTT 5 0x86, 3.1.1 code 4): the token is the password, and it is not valid; the message says which
 * check failed (the client holds the token already, so this tells it nothing new) and never contains the token.
 */
public final class JwtVerifier {

    /** Far above any real token; a larger "token" is not parsed at all, so it is taken as a (wrong) password. */
    static final int MAX_TOKEN_CHARS = 16 * 1024;
    /** As for credentials ({@code CredentialRequest}). */
    static final int MAX_ACL_ENTRIES = 1000;

    private static final Set<JWSAlgorithm> HMAC = JWSAlgorithm.Family.HMAC_SHA;
    private static final Set<JWSAlgorithm> RSA = JWSAlgorithm.Family.RSA;
    private static final Set<JWSAlgorithm> EC = JWSAlgorithm.Family.EC;

    private final JwtKeys keys;
    private final JwtProperties settings;
    private final Clock clock;

    public JwtVerifier(JwtKeys keys, JwtProperties settings, Clock clock) {
        if (settings.clockSkew().isNegative()) {
            throw new IllegalStateException("TRIBUTARY_JWT_CLOCK_SKEW must not be negative: " + settings.clockSkew());
        }
        this.keys = keys;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Whether a CONNECT password is a token (JWS compact serialization, or an unsigned or encrypted JWT, which are
     * refused rather than tried as passwords). Anything else is an ordinary password.
     */
    public static boolean isToken(byte[] password) {
        if (password == null || password.length > MAX_TOKEN_CHARS || password.length < 5) {
            return false;
        }
        try {
            JWTParser.parse(new String(password, StandardCharsets.UTF_8));
            return true;
        } catch (ParseException e) {
            return false;
        }
    }

    /**
     * @param username the CONNECT user name, or null (MQTT 5 allows a password without one): when set it must be the
     *                 token's subject
     * @param clientId the CONNECT client id: must equal the token's client id claim when the token has one
     * @throws TokenRefusedException when the token is not accepted
     */
    public VerifiedToken verify(byte[] password, String username, String clientId) {
        SignedJWT jwt = parse(password);
        verifySignature(jwt);
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw refused("token_malformed", "token payload is not a JSON claims set");
        }
        Instant acceptedUntil = checkTime(claims);
        checkIssuerAndAudience(claims);
        String subject = stringClaim(claims, settings.usernameClaim());
        if (subject == null || subject.isEmpty()) {
            throw refused("token_no_subject", "token has no '" + settings.usernameClaim() + "' claim");
        }
        if (username != null && !username.equals(subject)) {
            throw refused(
                    "token_username_mismatch",
                    "user name does not match the token's '" + settings.usernameClaim() + "' claim");
        }
        if (claims.getClaim(settings.clientIdClaim()) != null) {
            String boundClientId = stringClaim(claims, settings.clientIdClaim());
            if (!clientId.equals(boundClientId)) {
                throw refused(
                        "token_client_id_mismatch",
                        "client id does not match the token's '" + settings.clientIdClaim() + "' claim");
            }
        }
        return new VerifiedToken(subject, acceptedUntil, acl(claims));
    }

    private static SignedJWT parse(byte[] password) {
        JWT jwt;
        try {
            jwt = JWTParser.parse(new String(password, StandardCharsets.UTF_8));
        } catch (ParseException e) {
            throw refused("token_malformed", "token does not parse");
        }
        if (jwt instanceof SignedJWT signed) {
            return signed;
        }
        // alg "none" would let anybody write their own token; encrypted tokens are not supported.
        throw refused(
                "token_unsigned",
                "token is not signed (JWS) but " + jwt.getClass().getSimpleName());
    }

    private void verifySignature(SignedJWT jwt) {
        JWSHeader header = jwt.getHeader();
        JWSAlgorithm alg = header.getAlgorithm();
        List<JWSVerifier> verifiers = new ArrayList<>();
        if (HMAC.contains(alg) && keys.hmacSecret() != null) {
            // One secret, no key ids: a kid in the header of an HS* token is not looked at.
            verifiers.add(verifier(() -> new MACVerifier(keys.hmacSecret())));
        } else if (RSA.contains(alg) || EC.contains(alg)) {
            JWKMatcher matcher = JWKMatcher.forJWSHeader(header);
            for (JWK key : keys.publicKeys()) {
                if (matcher != null && matcher.matches(key)) {
                    verifiers.add(verifier(() ->
                            key instanceof RSAKey rsa ? new RSASSAVerifier(rsa) : new ECDSAVerifier((ECKey) key)));
                }
            }
            if (verifiers.isEmpty() && header.getKeyID() != null) {
                throw refused("token_unknown_key", "unknown key id '" + header.getKeyID() + "' for " + alg);
            }
        }
        if (verifiers.isEmpty()) {
            throw refused("token_algorithm", "no key accepts tokens signed with " + alg);
        }
        for (JWSVerifier verifier : verifiers) {
            try {
                if (jwt.verify(verifier)) {
                    return;
                }
            } catch (JOSEException e) {
                // this key cannot check it (e.g. another curve): try the next
            }
        }
        throw refused("token_bad_signature", "token signature does not verify");
    }

    private interface VerifierFactory {
        JWSVerifier create() throws JOSEException;
    }

    private static JWSVerifier verifier(VerifierFactory factory) {
        try {
            return factory.create();
        } catch (JOSEException e) {
            // Keys are checked at start-up; one that still cannot make a verifier is a configuration fault.
            throw new IllegalStateException("JWT key cannot verify: " + e.getMessage(), e);
        }
    }

    private Instant checkTime(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Duration skew = settings.clockSkew();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            // A token without expiry would be a password that can never be taken back.
            throw refused("token_no_expiry", "token has no 'exp' claim");
        }
        Instant acceptedUntil = exp.toInstant().plus(skew);
        if (!now.isBefore(acceptedUntil)) {
            throw refused("token_expired", "token expired at " + exp.toInstant());
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.plus(skew).isBefore(nbf.toInstant())) {
            throw refused("token_not_yet_valid", "token is not valid before " + nbf.toInstant());
        }
        return acceptedUntil;
    }

    private void checkIssuerAndAudience(JWTClaimsSet claims) {
        String issuer = settings.requiredIssuer();
        if (issuer != null && !issuer.equals(claims.getIssuer())) {
            throw refused("token_wrong_issuer", "token issuer is not '" + issuer + "'");
        }
        String audience = settings.requiredAudience();
        if (audience != null
                && (claims.getAudience() == null || !claims.getAudience().contains(audience))) {
            throw refused("token_wrong_audience", "token audience does not include '" + audience + "'");
        }
    }

    /** The ACL claim: {@code {"publish": [...], "subscribe": [...]}}, a missing list allowing nothing. */
    private VerifiedToken.TokenAcl acl(JWTClaimsSet claims) {
        Object value = claims.getClaim(settings.aclClaim());
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw refused("token_bad_acl", "token claim '" + settings.aclClaim() + "' is not an object");
        }
        return new VerifiedToken.TokenAcl(filters(map, "publish"), filters(map, "subscribe"));
    }

    private List<String> filters(Map<?, ?> acl, String name) {
        Object value = acl.get(name);
        if (value == null) {
            return List.of();
        }
        String where = "token claim '" + settings.aclClaim() + "." + name + "'";
        if (!(value instanceof List<?> list) || list.size() > MAX_ACL_ENTRIES) {
            throw refused("token_bad_acl", where + " is not a list of at most " + MAX_ACL_ENTRIES + " topic filters");
        }
        List<String> filters = new ArrayList<>(list.size());
        for (Object entry : list) {
            // The checks of credential ACLs, so a token cannot carry what the admin API would refuse.
            String problem = entry instanceof String s ? AclPlaceholders.problem(s) : "not a string: " + entry;
            if (problem == null && SharedFilters.isShared((String) entry)) {
                problem = "a $share/{group}/{filter} entry; ACLs name topic filters";
            }
            if (problem != null) {
                throw refused("token_bad_acl", where + ": " + problem);
            }
            filters.add((String) entry);
        }
        return filters;
    }

    private static String stringClaim(JWTClaimsSet claims, String name) {
        try {
            return claims.getStringClaim(name);
        } catch (ParseException e) {
            throw refused("token_malformed", "token claim '" + name + "' is not a string");
        }
    }

    private static TokenRefusedException refused(String cause, String message) {
        return new TokenRefusedException(cause, message);
    }
}
