package io.tributary.session.auth.jwt;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * JWT authentication of MQTT clients (the token in the CONNECT password), bound from
 * {@code tributary.session.auth.jwt.*} (application.yml maps the {@code TRIBUTARY_JWT_*} environment variables).
 * Key material is checked when {@link JwtKeys} loads it at start-up: enabled without any key fails the start.
 *
 * @param enabled       verify a CONNECT password that is a JWS compact token as a JWT; off: every password is a
 *                      password
 * @param hmacSecret    shared secret for HS256/384/512 (its UTF-8 bytes, at least 32), or empty for none
 * @param publicKeys    PEM files ({@code BEGIN PUBLIC KEY} or {@code BEGIN CERTIFICATE}) with RSA or EC keys for
 *                      RS*, PS* and ES* tokens; the file name without its extension is the key id ({@code kid})
 * @param jwksFile      a local JWKS file (RFC 7517 JSON) with RSA or EC public keys and their key ids, or empty
 * @param issuer        required {@code iss}; {@code *} accepts any. Needed when enabled: a token signed with the
 *                      key for another purpose (another issuer sharing the HMAC secret or the signing key) would
 *                      otherwise authenticate here, so leaving it out fails the start rather than accepting any
 * @param audience      a value the token's {@code aud} must contain; {@code *} accepts any. Needed when enabled, for
 *                      the same reason: a token the issuer made for another service would otherwise be accepted
 * @param usernameClaim claim naming the identity (the user name; {@code %u} of ACLs)
 * @param clientIdClaim claim that, when present in a token, binds it to that client id
 * @param aclClaim      claim with the ACL: {@code {"publish": [filters], "subscribe": [filters]}}; a token without it
 *                      takes the ACL of the credential that names its subject
 * @param clockSkew     tolerance for {@code exp} and {@code nbf} between the token issuer's clock and ours
 */
@Validated
@ConfigurationProperties("tributary.session.auth.jwt")
public record JwtProperties(
        boolean enabled,
        String hmacSecret,
        List<String> publicKeys,
        String jwksFile,
        String issuer,
        String audience,
        @NotBlank String usernameClaim,
        @NotBlank String clientIdClaim,
        @NotBlank String aclClaim,
        @NotNull Duration clockSkew) {

    /** Written for {@code issuer} or {@code audience}: any value is accepted, as configured on purpose. */
    public static final String ANY = "*";

    public JwtProperties {
        publicKeys = publicKeys == null
                ? List.of()
                : publicKeys.stream()
                        .map(String::trim)
                        .filter(p -> !p.isEmpty())
                        .toList();
        // Not trimmed: every byte of a secret counts.
        hmacSecret = hmacSecret == null || hmacSecret.isEmpty() ? null : hmacSecret;
        jwksFile = blankToNull(jwksFile);
        issuer = blankToNull(issuer);
        audience = blankToNull(audience);
        if (enabled && (issuer == null || audience == null)) {
            throw new IllegalArgumentException("TRIBUTARY_JWT_ENABLED is true but TRIBUTARY_JWT_"
                    + (issuer == null ? "ISSUER" : "AUDIENCE")
                    + " is not set: name the issuer whose tokens are accepted and the audience they must be for (a"
                    + " token another issuer signed with the same key, or one made for another service, would be"
                    + " accepted), or set it to " + ANY + " to accept any, knowingly");
        }
    }

    /** The {@code iss} a token must carry; null when any is accepted. */
    public String requiredIssuer() {
        return ANY.equals(issuer) ? null : issuer;
    }

    /** A value the token's {@code aud} must contain; null when any is accepted. */
    public String requiredAudience() {
        return ANY.equals(audience) ? null : audience;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
