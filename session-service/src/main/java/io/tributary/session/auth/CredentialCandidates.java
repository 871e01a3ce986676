package io.tributary.session.auth;

import java.util.List;
import java.util.Set;

/**
 * What {@link CredentialFit} decides CONNECTs from: every credential naming one of their client ids, those naming one
 * of their user names or certificate CNs without a client id, and which of the user names any credential names (a
 * user name named only together with other client ids is not fetched: a shared user name may have thousands).
 */
public record CredentialCandidates(List<Credential> credentials, Set<String> namedUsernames) {}
