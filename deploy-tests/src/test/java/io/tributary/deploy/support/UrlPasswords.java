package io.tributary.deploy.support;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The password in a URL-valued setting ({@code redis://[user]:password@host:port}). A tracked deployment file may
 * only name it, as {@code ${VARIABLE}} (resolved by the service's Spring environment at start-up) or
 * {@code $(VARIABLE)} (by Kubernetes), with the variable read from a secret; a password written out is a secret in
 * git.
 */
public final class UrlPasswords {

    private static final Pattern USER_INFO = Pattern.compile("^[a-z][a-z0-9+.-]*://([^/@]*)@");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Z_][A-Z0-9_]*)}|\\$\\(([A-Z_][A-Z0-9_]*)\\)");

    private UrlPasswords() {}

    /** The password part of {@code value}'s user information, if it is a URL with one. */
    public static Optional<String> password(String value) {
        Matcher m = USER_INFO.matcher(value == null ? "" : value.trim());
        if (!m.find() || m.group(1).indexOf(':') < 0) {
            return Optional.empty();
        }
        String password = m.group(1).substring(m.group(1).indexOf(':') + 1);
        return password.isEmpty() ? Optional.empty() : Optional.of(password);
    }

    /** The variable the URL's password names ({@code ${NAME}} or {@code $(NAME)}), if it names one. */
    public static Optional<String> passwordVariable(String value) {
        return password(value).flatMap(password -> {
            Matcher m = REFERENCE.matcher(password);
            return m.matches() ? Optional.of(m.group(1) != null ? m.group(1) : m.group(2)) : Optional.empty();
        });
    }

    /**
     * The URL of a setting ({@code jdbc:} dropped) without its user information, as {@link URI}: a named password
     * ({@code ${REDIS_PASSWORD}}) is no valid URI authority.
     */
    public static URI withoutUserInfo(String value) {
        String url = value.startsWith("jdbc:") ? value.substring(5) : value;
        Matcher m = USER_INFO.matcher(url);
        return URI.create(m.find() ? url.substring(0, m.start(1)) + url.substring(m.end()) : url);
    }

    /** Whether {@code value} is a URL carrying a password written out rather than named. */
    public static boolean hasLiteralPassword(String value) {
        return password(value).isPresent() && passwordVariable(value).isEmpty();
    }
}
