package io.tributary.session.auth;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which credential authenticates a CONNECT (issue 34; the rule is written down in SECURITY.md, "Credential
 * identities"). Every identity (user name or JWT subject, client id, certificate CN) belongs to the credentials of one
 * namespace (migration V22 holds it), so the credential chosen is always of the namespace owning the identity that
 * chose it, whatever other namespaces name. Tried in this order, the first that fits deciding:
 *
 * <ol>
 *   <li>A verified certificate CN: the credential naming it (and the CONNECT's user name, client id if it names
 *       them), in the CN's namespace.
 *   <li>A JWT subject: the credential naming it, in the subject's namespace; none when no credential names it (the
 *       token's own ACL, the global namespace).
 *   <li>A password, or no secret: when a credential names the client id, only such credentials fit (the one naming
 *       the user name too before the one naming none); otherwise the credential naming the user name and no client id.
 * </ol>
 *
 * <p>In each, a client id that a credential of the deciding namespace names needs a credential naming it: a user
 * name's, certificate's or token's credential must not take over the session of a client id that has its own. Proven
 * identities (CN, subject) decide before the client id, so another namespace naming the client id a certificate or
 * token device uses cannot lock that device out; a password proves nothing until a credential is chosen, and the
 * client id is the most specific identity a CONNECT states.
 */
final class CredentialFit {

    /** Same specificity: the one with a password before a certificate-only one. */
    private static final Comparator<Credential> BEST =
            Comparator.comparingInt(Credential::specificity).thenComparing(c -> c.passwordHash() != null);

    private CredentialFit() {}

    /** The credential a mutual-TLS CONNECT presenting {@code cn} is authenticated by; empty: the other rules apply. */
    static Optional<Credential> byCertificate(
            CredentialCandidates candidates, String cn, String username, String clientId) {
        List<Credential> naming = candidates.credentials().stream()
                .filter(c -> cn.equals(c.certificateCn()))
                .toList();
        if (naming.isEmpty()) {
            return Optional.empty();
        }
        String namespace = naming.get(0).tenant(); // the CN's: one namespace names it
        return within(candidates, naming.stream(), namespace, clientId)
                .filter(c -> c.username() == null || c.username().equals(username))
                .max(BEST);
    }

    /**
     * The credential a verified token for {@code subject} is linked to; empty: none names the subject (and the
     * token's own ACL decides), or {@link #refusesToken} says the CONNECT has no credential it may use.
     */
    static Optional<Credential> byToken(CredentialCandidates candidates, String subject, String clientId) {
        List<Credential> naming = candidates.credentials().stream()
                .filter(c -> subject.equals(c.username()))
                .toList();
        if (naming.isEmpty()) {
            return Optional.empty();
        }
        return within(candidates, naming.stream(), naming.get(0).tenant(), clientId)
                .max(BEST);
    }

    /**
     * Whether a token CONNECT that {@link #byToken} found no credential for is refused: its subject is named (only
     * with other client ids), or it would enter the global namespace with a client id a global credential names.
     */
    static boolean refusesToken(CredentialCandidates candidates, String subject, String clientId) {
        return candidates.namedUsernames().contains(subject) || claims(candidates, null, clientId);
    }

    /** The credential a password CONNECT (or one without any secret) is checked against. */
    static Optional<Credential> byPassword(CredentialCandidates candidates, String username, String clientId) {
        List<Credential> claimants = candidates.credentials().stream()
                .filter(c -> clientId.equals(c.clientId()))
                .toList();
        if (!claimants.isEmpty()) {
            return claimants.stream()
                    .filter(c -> c.username() == null || c.username().equals(username))
                    .max(BEST);
        }
        return candidates.credentials().stream()
                .filter(c -> c.clientId() == null
                        && c.username() != null
                        && c.username().equals(username))
                .max(BEST);
    }

    /**
     * Whether a credential names the CONNECT's client id or user name: then one that {@link #byPassword} fits none
     * is refused, never anonymous (docs/securing.md: "A client id or user name that has a credential always needs ...").
     */
    static boolean named(CredentialCandidates candidates, String username, String clientId) {
        return (username != null && candidates.namedUsernames().contains(username))
                || candidates.credentials().stream().anyMatch(c -> clientId.equals(c.clientId()));
    }

    /**
     * The credentials of {@code naming} (all of {@code namespace}) that may authenticate {@code clientId}: naming it
     * when a credential of the namespace does (rule 1), else naming no client id.
     */
    private static Stream<Credential> within(
            CredentialCandidates candidates, Stream<Credential> naming, String namespace, String clientId) {
        boolean claimed = claims(candidates, namespace, clientId);
        return naming.filter(c -> claimed ? clientId.equals(c.clientId()) : c.clientId() == null);
    }

    /** Whether a credential of the namespace (null: the global one) names the client id. */
    private static boolean claims(CredentialCandidates candidates, String namespace, String clientId) {
        return candidates.credentials().stream()
                .anyMatch(c -> clientId.equals(c.clientId()) && Objects.equals(c.tenant(), namespace));
    }
}
