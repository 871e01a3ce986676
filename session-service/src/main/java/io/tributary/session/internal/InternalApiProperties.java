package io.tributary.session.internal;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
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
 * @param port  the port of the internal API's own connector ({@code INTERNAL_API_PORT}, 8086; 0 picks a free one),
 *              the only port answering {@code /internal/**}: a network policy can then let only the transport and
 *              routing pods reach it while the admin API on {@code HTTP_PORT} is exposed. It must differ from
 *              {@code HTTP_PORT} and {@code MANAGEMENT_PORT}.
 */
@Validated
@ConfigurationProperties("tributary.internal")
public record InternalApiProperties(
        @NotBlank @Size(min = 16) String token,
        @Min(0) @Max(65535) int port) {

    @Override
    public String toString() {
        return "InternalApiProperties[token=***, port=" + port + "]";
    }
}
