package io.tributary.session.auth.jwt;

import com.nimbusds.jose.jwk.JWK;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The JWT verifier, only when {@code TRIBUTARY_JWT_ENABLED=true}; its keys are loaded (and checked) at start-up. */
@Configuration(proxyBeanMethods = false)
public class JwtConfiguration {

    private static final Logger log = LoggerFactory.getLogger(JwtConfiguration.class);

    @Bean
    @ConditionalOnProperty(prefix = "tributary.session.auth.jwt", name = "enabled", havingValue = "true")
    JwtVerifier jwtVerifier(JwtProperties properties, Clock clock) {
        JwtKeys keys = JwtKeys.load(properties);
        JwtVerifier verifier = new JwtVerifier(keys, properties, clock);
        log.info(
                "JWT authentication on: HMAC secret {}, public keys {}, issuer {}, audience {}, clock skew {}",
                keys.hmacSecret() == null ? "none" : "set",
                keys.publicKeys().stream().map(JwtConfiguration::describe).toList(),
                properties.requiredIssuer() == null ? "any" : properties.requiredIssuer(),
                properties.requiredAudience() == null ? "any" : properties.requiredAudience(),
                properties.clockSkew());
        return verifier;
    }

    private static String describe(JWK key) {
        return key.getKeyType() + "/" + key.getKeyID();
    }
}
