package io.tributary.session.internal;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The internal API of the transport nodes ({@code /internal/**}).
 *
 * @param token the deployment's shared secret ({@code TRIBUTARY_INTERNAL_TOKEN}), which every internal call must
 *              carry; required, so that no deployment serves session takeovers and credential checks to anybody who
 *              reaches the port. At least 16 characters.
 */
@Validated
@ConfigurationProperties("tributary.internal")
public record InternalApiProperties(
        @NotBlank @Size(min = 16) String token) {

    @Override
    public String toString() {
        return "InternalApiProperties[token=***]";
    }
}
