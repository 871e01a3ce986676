package io.tributary.session.auth;

import io.tributary.common.acl.AclPlaceholders;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.common.topic.SharedFilters;
import io.tributary.session.web.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST} and {@code PUT /api/v1/auth/credentials}. The password arrives in plain text (over the admin
 * API only) and is hashed before anything is stored; on update a null password keeps the stored hash.
 *
 * @param publish   ACL templates of topics the client may publish to; null = none
 * @param subscribe ACL templates of filters the client may subscribe within; null = none
 * @param certificateCn CN of a client certificate that authenticates without a password over mutual TLS; with it
 *                  the password is optional
 * @param tenant    the id of the tenant the credential's clients belong to (their topics are in its namespace); null
 *                  = the global namespace. On update, the credential moves (its connections are closed)
 */
public record CredentialRequest(
        @Nullable String username,
        @Nullable String clientId,
        @Nullable String password,
        @Nullable Boolean blocked,
        @Nullable List<String> publish,
        @Nullable List<String> subscribe,
        @Nullable String description,
        @Nullable String certificateCn,
        @Nullable String tenant) {

    static final int MAX_ACL_ENTRIES = 1000;

    /** The same request for another tenant. */
    CredentialRequest withTenant(String otherTenant) {
        return new CredentialRequest(
                username, clientId, password, blocked, publish, subscribe, description, certificateCn, otherTenant);
    }

    static final int MAX_DESCRIPTION = 1000;
    private static final int MAX_MQTT_STRING_BYTES = 65_535;

    /** @throws ApiException 400 naming the first problem */
    void check(boolean passwordRequired) {
        if (username == null && clientId == null && certificateCn == null) {
            throw ApiException.badRequest("a credential needs a username, a clientId, a certificateCn, or several");
        }
        identity("username", username);
        identity("clientId", clientId);
        identity("certificateCn", certificateCn);
        if (password == null) {
            if (passwordRequired && certificateCn == null) {
                throw ApiException.badRequest("password is required (or a certificateCn)");
            }
        } else {
            String problem = PasswordHasher.problem(password);
            if (problem != null) {
                throw ApiException.badRequest(problem);
            }
        }
        acl("publish", publish);
        acl("subscribe", subscribe);
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw ApiException.badRequest("description longer than " + MAX_DESCRIPTION + " characters");
        }
        if (tenant != null) {
            String problem = TenantTopics.idProblem(tenant);
            if (problem != null) {
                throw ApiException.badRequest("tenant: " + problem);
            }
        }
    }

    List<String> publishOrEmpty() {
        return publish == null ? List.of() : publish;
    }

    List<String> subscribeOrEmpty() {
        return subscribe == null ? List.of() : subscribe;
    }

    boolean blockedOrFalse() {
        return blocked != null && blocked;
    }

    private static void identity(String name, String value) {
        if (value == null) {
            return;
        }
        if (value.isEmpty()) {
            throw ApiException.badRequest(name + " must not be empty (leave it out or null to match any)");
        }
        if (value.indexOf('\u0000') >= 0) {
            throw ApiException.badRequest(name + " must not contain U+0000");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_MQTT_STRING_BYTES) {
            throw ApiException.badRequest(name + " longer than 65535 bytes");
        }
    }

    private static void acl(String name, List<String> entries) {
        if (entries == null) {
            return;
        }
        if (entries.size() > MAX_ACL_ENTRIES) {
            throw ApiException.badRequest(name + " has more than " + MAX_ACL_ENTRIES + " entries");
        }
        for (String entry : entries) {
            String problem = AclPlaceholders.problem(entry);
            if (problem != null) {
                throw ApiException.badRequest(name + ": " + problem);
            }
            if (SharedFilters.isShared(entry)) {
                throw ApiException.badRequest(name + ": ACLs name topic filters; a $share/{group}/{filter} "
                        + "subscription is checked against its filter: '" + entry + "'");
            }
        }
    }

    @Override
    public String toString() {
        return "CredentialRequest[username=" + username + ", clientId=" + clientId + ", certificateCn="
                + certificateCn + ", tenant=" + tenant + ", password="
                + (password == null ? "none" : "***") + "]";
    }
}
