package io.tributary.transport.connection;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The identity in the certificate a client presented on a mutual-TLS listener, already verified against the
 * configured CA by the TLS handshake. Authentication maps it to credentials; it is attached to the channel once
 * (at CONNECT) and sent to session-service as {@code certificateCommonName}.
 *
 * @param commonName      the subject's CN (the most specific one when there are several), or null
 * @param subjectAltNames the subject alternative names as {@code DNS:name}, {@code IP:address},
 *                        {@code URI:uri}, {@code email:address}; other kinds are left out
 * @param subject         the whole subject DN (RFC 2253)
 */
public record ClientCertificate(String commonName, List<String> subjectAltNames, String subject) {

    public static final AttributeKey<ClientCertificate> KEY = AttributeKey.valueOf("tributary.clientCertificate");

    /**
     * The verified client certificate of a channel, or null (no TLS, or the client sent none). Reads the TLS
     * session once and keeps the result on the channel. Call on the channel's event loop after the handshake (any
     * MQTT packet arrives after it).
     */
    public static ClientCertificate of(Channel channel) {
        // hasAttr first: attr() alone would add an empty attribute to every plain-TCP channel (40 bytes each).
        ClientCertificate known = channel.hasAttr(KEY) ? channel.attr(KEY).get() : null;
        if (known != null) {
            return known;
        }
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        if (ssl == null) {
            return null;
        }
        SSLSession session = ssl.engine().getSession();
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
            return null;
        }
        ClientCertificate identity = from(certificate);
        channel.attr(KEY).set(identity);
        return identity;
    }

    public static ClientCertificate from(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName(javax.security.auth.x500.X500Principal.RFC2253);
        return new ClientCertificate(commonName(subject), subjectAltNames(certificate), subject);
    }

    static String commonName(String subjectRfc2253) {
        try {
            String cn = null;
            // LdapName lists RDNs from the least to the most specific: the last CN wins.
            for (Rdn rdn : new LdapName(subjectRfc2253).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    cn = String.valueOf(rdn.getValue());
                }
            }
            return cn;
        } catch (InvalidNameException e) {
            return null;
        }
    }

    private static List<String> subjectAltNames(X509Certificate certificate) {
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return List.of();
        }
        if (names == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (List<?> name : names) {
            Object type = name.get(0);
            Object value = name.get(1);
            if (!(type instanceof Integer t) || !(value instanceof String v)) {
                continue;
            }
            switch (t) {
                case 1 -> out.add("email:" + v);
                case 2 -> out.add("DNS:" + v);
                case 6 -> out.add("URI:" + v);
                case 7 -> out.add("IP:" + v);
                default -> {}
            }
        }
        return List.copyOf(out);
    }
}
