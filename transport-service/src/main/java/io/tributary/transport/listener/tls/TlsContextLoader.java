package io.tributary.transport.listener.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tributary.transport.config.TransportProperties;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * Builds the server {@link SslContext} from the PEM files named in the TLS settings. Files are read into memory
 * first, so one build sees one version of each file, and the key is checked against the certificate: during a
 * certificate rotation the two files are rarely replaced at the same instant, and serving a new certificate with
 * the old key would fail every handshake.
 */
public final class TlsContextLoader {

    /** TLS 1.0/1.1 are deprecated (RFC 8996); nothing older than 1.2 is offered. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final TransportProperties.Tls settings;
    private final SslProvider provider;

    public TlsContextLoader(TransportProperties.Tls settings) {
        this.settings = settings;
        this.provider = chooseProvider(settings.provider());
    }

    /** The provider actually used: OpenSSL (BoringSSL from netty-tcnative) is faster and lighter per connection. */
    public SslProvider provider() {
        return provider;
    }

    static SslProvider chooseProvider(TransportProperties.Tls.Provider wanted) {
        return switch (wanted) {
            case JDK -> SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalStateException(
                            "MQTT_TLS_PROVIDER=openssl but OpenSSL is not available: " + OpenSsl.unavailabilityCause());
                }
                yield SslProvider.OPENSSL;
            }
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        };
    }

    /** The files whose changes trigger a reload. */
    public List<Path> files() {
        return settings.clientAuth() == TransportProperties.Tls.ClientAuthMode.NONE || blank(settings.ca())
                ? List.of(Path.of(settings.cert()), Path.of(settings.key()))
                : List.of(Path.of(settings.cert()), Path.of(settings.key()), Path.of(settings.ca()));
    }

    /** Reads the files and builds a context; throws with a message naming the file on any problem. */
    public Loaded load() throws IOException, CertificateException {
        byte[] chain = read(settings.cert(), "certificate (MQTT_TLS_CERT)");
        byte[] key = read(settings.key(), "private key (MQTT_TLS_KEY)");
        List<X509Certificate> certificates = parseCertificates(chain, settings.cert());
        PrivateKey privateKey = parsePrivateKey(key, settings.key());
        checkKeyMatches(privateKey, certificates.get(0), settings.key(), settings.cert());
        SslContextBuilder builder =
                SslContextBuilder.forServer(privateKey, certificates.toArray(X509Certificate[]::new));
        builder.sslProvider(provider)
                .protocols(PROTOCOLS)
                // Session resumption saves a full handshake (and its asymmetric crypto) when devices reconnect:
                // session ids for TLS 1.2, tickets for TLS 1.3 (both providers issue tickets by default).
                .sessionCacheSize(settings.sessionCacheSize())
                .sessionTimeout(settings.sessionTimeout().toSeconds());
        X509Certificate[] trusted = null;
        switch (settings.clientAuth()) {
            case NONE -> builder.clientAuth(ClientAuth.NONE);
            case OPTIONAL -> builder.clientAuth(ClientAuth.OPTIONAL);
            case REQUIRED -> builder.clientAuth(ClientAuth.REQUIRE);
        }
        if (settings.clientAuth() != TransportProperties.Tls.ClientAuthMode.NONE) {
            byte[] ca = read(settings.ca(), "CA bundle (MQTT_TLS_CA)");
            trusted = parseCertificates(ca, settings.ca()).toArray(X509Certificate[]::new);
            builder.trustManager(trusted);
        }
        SslContext context;
        try {
            context = builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IOException(
                    "cannot build the TLS context from " + settings.cert() + " / " + settings.key() + ": "
                            + e.getMessage(),
                    e);
        }
        return new Loaded(context, certificates.get(0));
    }

    /** A built context and the server certificate it presents (for logs and tests). */
    public record Loaded(SslContext context, X509Certificate certificate) {}

    private static byte[] read(String file, String what) throws IOException {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException e) {
            throw new IOException("cannot read the TLS " + what + " " + file + ": " + e, e);
        }
    }

    static List<X509Certificate> parseCertificates(byte[] pem, String file) throws CertificateException {
        List<X509Certificate> certificates =
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)).stream()
                        .map(X509Certificate.class::cast)
                        .toList();
        if (certificates.isEmpty()) {
            throw new CertificateException("no certificate in " + file);
        }
        return certificates;
    }

    /**
     * Unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}), what {@code openssl genpkey} and {@code openssl req -noenc}
     * write; RSA, EC and EdDSA keys. Legacy PKCS#1 / SEC1 files are refused with a hint how to convert them.
     */
    static PrivateKey parsePrivateKey(byte[] pem, String file) throws CertificateException {
        String text = new String(pem, java.nio.charset.StandardCharsets.US_ASCII);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----")
                .matcher(text);
        if (!m.find()) {
            throw new CertificateException("no unencrypted PKCS#8 private key (BEGIN PRIVATE KEY) in " + file
                    + "; convert it with: openssl pkcs8 -topk8 -nocrypt -in old.key -out " + file);
        }
        byte[] der = java.util.Base64.getMimeDecoder().decode(m.group(1));
        java.security.spec.PKCS8EncodedKeySpec spec = new java.security.spec.PKCS8EncodedKeySpec(der);
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448"}) {
            try {
                return java.security.KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (java.security.GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new CertificateException("unsupported private key algorithm in " + file + " (RSA, EC, Ed25519)");
    }

    /** Signs a random challenge with the key and verifies it with the certificate's public key. */
    static void checkKeyMatches(PrivateKey key, X509Certificate certificate, String keyFile, String certFile)
            throws CertificateException {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            case "Ed448" -> "Ed448";
            default -> null;
        };
        if (algorithm == null) {
            return; // unknown algorithm: the handshake will tell
        }
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(challenge);
            if (!verifier.verify(signature)) {
                throw new CertificateException(keyFile + " is not the private key of the certificate in " + certFile);
            }
        } catch (java.security.GeneralSecurityException e) {
            if (e instanceof CertificateException c) {
                throw c;
            }
            throw new CertificateException(keyFile + " does not match the certificate in " + certFile + ": " + e, e);
        }
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
