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
 * @param issuer        required {@code iss}, or empty to accept any
 * @param audience      a value the token's {@code aud} must contain, or empty to accept any
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
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
