package io.tributary.transport.listener.tls;

import io.tributary.devstack.tls.CertificateAuthority;
import io.tributary.transport.config.TransportProperties;
import java.nio.file.Path;
import java.time.Duration;

/** TLS settings for the listener tests. */
final class TlsTestSupport {

    private TlsTestSupport() {}

    static TransportProperties.Tls settings(
            CertificateAuthority.Files server,
            Path ca,
            TransportProperties.Tls.ClientAuthMode clientAuth,
            TransportProperties.Tls.Provider provider) {
        return new TransportProperties.Tls(
                0,
                server.certificate().toString(),
                server.key().toString(),
                clientAuth,
                ca == null ? null : ca.toString(),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                provider,
                100,
                Duration.ofMinutes(5));
    }
}
