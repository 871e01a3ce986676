package io.tributary.session.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The choice of credential for a JWT (issue 34), which the integration tests of this module cannot reach (JWT is off
 * in their configuration; integration-tests' JwtAuthenticationTest runs it end to end): the subject's namespace
 * decides, and a client id with its own credential is not a token's to take.
 */
class CredentialFitTest {

    private static long ids;

    private static Credential credential(String username, String clientId, String cn, String tenant) {
        Instant now = Instant.EPOCH;
        return new Credential(
                ++ids, username, clientId, "hash", false, List.of(), List.of(), null, 1, now, now, cn, tenant);
    }

    private static CredentialCandidates candidates(Set<String> named, Credential... credentials) {
        return new CredentialCandidates(List.of(credentials), named);
    }

    @Test
    void a_token_is_linked_to_its_subjects_credential_in_the_subjects_namespace() {
        Credential subject = credential("meter-owner", null, null, "acme");
        Credential otherClaim = credential(null, "meter-42", null, "evil");
        CredentialCandidates k = candidates(Set.of("meter-owner"), subject, otherClaim);

        // Another namespace naming the client id does not take the token, nor lock it out.
        assertThat(CredentialFit.byToken(k, "meter-owner", "meter-42")).contains(subject);
    }

    @Test
    void a_client_id_with_its_own_credential_needs_it_also_for_a_token() {
        Credential subject = credential("fleet", null, null, "acme");
        Credential device = credential(null, "meter-7", null, "acme");
        CredentialCandidates k = candidates(Set.of("fleet"), subject, device);
        assertThat(CredentialFit.byToken(k, "fleet", "meter-7")).isEmpty();
        assertThat(CredentialFit.refusesToken(k, "fleet", "meter-7")).isTrue();

        Credential pair = credential("fleet", "meter-7", null, "acme");
        assertThat(CredentialFit.byToken(candidates(Set.of("fleet"), subject, device, pair), "fleet", "meter-7"))
                .contains(pair);
    }

    @Test
    void a_token_no_credential_names_stays_global_and_keeps_off_global_client_ids() {
        CredentialCandidates tenantClaim = candidates(Set.of(), credential(null, "dev-1", null, "acme"));
        assertThat(CredentialFit.byToken(tenantClaim, "anyone", "dev-1")).isEmpty();
        assertThat(CredentialFit.refusesToken(tenantClaim, "anyone", "dev-1"))
                .as("acme's client id is acme's; the token's namespace is the global one")
                .isFalse();

        CredentialCandidates globalClaim = candidates(Set.of(), credential(null, "dev-1", null, null));
        assertThat(CredentialFit.refusesToken(globalClaim, "anyone", "dev-1")).isTrue();
        // A subject named only with other client ids is not let into the global namespace either.
        assertThat(CredentialFit.refusesToken(candidates(Set.of("bound")), "bound", "dev-9"))
                .isTrue();
    }

    @Test
    void a_certificate_decides_in_its_namespace_and_a_password_by_the_client_id_first() {
        Credential cert = credential(null, null, "cn-1", "acme");
        Credential evilClaim = credential(null, "dev-1", null, "evil");
        CredentialCandidates k = candidates(Set.of(), cert, evilClaim);
        assertThat(CredentialFit.byCertificate(k, "cn-1", null, "dev-1")).contains(cert);

        Credential user = credential("u", null, null, "acme");
        Optional<Credential> password =
                CredentialFit.byPassword(candidates(Set.of("u"), user, evilClaim), "u", "dev-1");
        assertThat(password).contains(evilClaim);
    }
}
