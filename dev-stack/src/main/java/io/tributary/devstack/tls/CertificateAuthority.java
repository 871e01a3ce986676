package io.tributary.devstack.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for TLS tests and local trials: a self-signed CA (EC P-256) that issues
 * server certificates (with DNS and IP subject alternative names) and client certificates, written as the PEM
 * files the transport reads (certificate chain; unencrypted PKCS#8 key).
 */
public final class CertificateAuthority {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final X500Name name;
    private final KeyPair keys;
    private final X509Certificate certificate;

    private CertificateAuthority(X500Name name, KeyPair keys, X509Certificate certificate) {
        this.name = name;
        this.keys = keys;
        this.certificate = certificate;
    }

    /** An issued certificate and its key. */
    public record Issued(X509Certificate certificate, KeyPair keys, List<X509Certificate> chain) {

        /** Presents this certificate (a TLS client's key material). */
        public javax.net.ssl.KeyManagerFactory keyManagerFactory() throws GeneralSecurityException, IOException {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("key", keys.getPrivate(), new char[0], chain.toArray(X509Certificate[]::new));
            javax.net.ssl.KeyManagerFactory kmf =
                    javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, new char[0]);
            return kmf;
        }

        /** Writes {@code <base>.crt} (certificate, then the CA) and {@code <base>.key}; atomically replaces them. */
        public Files written(Path dir, String base) throws IOException {
            Path cert = dir.resolve(base + ".crt");
            Path key = dir.resolve(base + ".key");
            writeAtomically(key, pemKey(keys));
            List<Object> objects = new ArrayList<>(chain);
            writeAtomically(cert, pem(objects));
            return new Files(cert, key);
        }
    }

    /**
     * A JDK client TLS context trusting this CA and presenting {@code client} (null: no client certificate), for
     * test clients (JDK sockets, Paho's socket factory).
     */
    public javax.net.ssl.SSLContext clientContext(Issued client) throws GeneralSecurityException, IOException {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(
                client == null ? null : client.keyManagerFactory().getKeyManagers(),
                trustManagerFactory().getTrustManagers(),
                RANDOM);
        return context;
    }

    /** Trust in this CA only. */
    public javax.net.ssl.TrustManagerFactory trustManagerFactory() throws GeneralSecurityException, IOException {
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", certificate);
        javax.net.ssl.TrustManagerFactory tmf =
                javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf;
    }

    /** Paths of a written certificate and key. */
    public record Files(Path certificate, Path key) {}

    public static CertificateAuthority create(String commonName) throws GeneralSecurityException, IOException {
        KeyPair keys = newKeyPair();
        X500Name name = new X500Name("CN=" + commonName);
        try {
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    name,
                    serial(),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(30))),
                    name,
                    keys.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            builder.addExtension(
                    Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            return new CertificateAuthority(name, keys, sign(builder, keys));
        } catch (org.bouncycastle.cert.CertIOException e) {
            throw new IOException(e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** Writes the CA certificate (the trust bundle clients and the server's client-auth use). */
    public Path writeCertificate(Path file) throws IOException {
        writeAtomically(file, pem(List.of(certificate)));
        return file;
    }

    /** A server certificate for {@code commonName} valid for the given host names and IP addresses. */
    public Issued issueServer(String commonName, List<String> hosts) throws GeneralSecurityException, IOException {
        List<GeneralName> names = new ArrayList<>();
        for (String host : hosts) {
            boolean ip = host.chars().allMatch(c -> Character.isDigit(c) || c == '.') || host.contains(":");
            names.add(
                    ip
                            ? new GeneralName(
                                    GeneralName.iPAddress,
                                    InetAddress.getByName(host).getHostAddress())
                            : new GeneralName(GeneralName.dNSName, host));
        }
        return issue(commonName, names, KeyPurposeId.id_kp_serverAuth);
    }

    /** A client certificate with the given CN (and optional DNS / URI subject alternative names). */
    public Issued issueClient(String commonName, List<String> dnsNames) throws GeneralSecurityException, IOException {
        List<GeneralName> names = new ArrayList<>();
        for (String dns : dnsNames) {
            names.add(new GeneralName(GeneralName.dNSName, dns));
        }
        return issue(commonName, names, KeyPurposeId.id_kp_clientAuth);
    }

    private Issued issue(String commonName, List<GeneralName> altNames, KeyPurposeId purpose)
            throws GeneralSecurityException, IOException {
        KeyPair subjectKeys = newKeyPair();
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                name,
                serial(),
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(7))),
                new X500Name("O=Tributary Test,CN=" + commonName),
                subjectKeys.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
        builder.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
        if (!altNames.isEmpty()) {
            builder.addExtension(
                    Extension.subjectAlternativeName, false, new GeneralNames(altNames.toArray(GeneralName[]::new)));
        }
        X509Certificate issued = sign(builder, keys);
        return new Issued(issued, subjectKeys, List.of(issued, certificate));
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException {
        try {
            ContentSigner contentSigner = new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
        } catch (org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(64, RANDOM).abs().add(BigInteger.ONE);
    }

    static String pem(List<?> objects) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (Object o : objects) {
                writer.writeObject(o);
            }
        }
        return out.toString();
    }

    /** Unencrypted PKCS#8 ("BEGIN PRIVATE KEY"), as {@code openssl genpkey} writes it. */
    static String pemKey(KeyPair keys) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
        }
        return out.toString();
    }

    /** Write then rename, as a certificate manager does, so a reader never sees half a file. */
    static void writeAtomically(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        java.nio.file.Files.writeString(tmp, content);
        java.nio.file.Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
