package io.tributary.common.acl;

import io.tributary.common.topic.TopicFilters;
import java.util.ArrayList;
import java.util.List;

/**
 * ACL filter templates: topic filters whose levels may be a placeholder, {@code %c} (client id), {@code %u}
 * (username) or {@code %cn} (the CN of the client certificate, filled in once TLS client authentication exists).
 * A placeholder stands for one whole level, and a value that is empty or holds {@code /}, {@code +}, {@code #} or
 * U+0000 makes the entry match nothing: substituted as is, a client id like {@code #} would turn
 * {@code devices/%c/#} into a grant of everything.
 */
public final class AclPlaceholders {

    public static final String CLIENT_ID = "%c";
    public static final String USERNAME = "%u";
    public static final String CERTIFICATE_CN = "%cn";

    private AclPlaceholders() {}

    /** Why {@code template} is not a valid ACL entry, or null when it is. */
    public static String problem(String template) {
        if (template == null || template.isEmpty()) {
            return "ACL filter is empty";
        }
        for (String level : template.split("/", -1)) {
            if (level.contains("%") && !isPlaceholder(level)) {
                return "'%' is only allowed as a whole-level placeholder %c, %u or %cn: '" + template + "'";
            }
        }
        String filterProblem = TopicFilters.topicFilterProblem(template);
        return filterProblem == null ? null : filterProblem + ": '" + template + "'";
    }

    /**
     * The templates with their placeholders filled in; entries whose placeholder has no usable value are left out
     * (a null {@code username} or {@code certificateCn} leaves out every entry naming it).
     */
    public static List<String> resolve(List<String> templates, String clientId, String username, String certificateCn) {
        List<String> resolved = new ArrayList<>(templates.size());
        for (String template : templates) {
            String filter = resolve(template, clientId, username, certificateCn);
            if (filter != null) {
                resolved.add(filter);
            }
        }
        return resolved;
    }

    /** One template resolved, or null when a placeholder in it has no usable value. */
    public static String resolve(String template, String clientId, String username, String certificateCn) {
        if (template.indexOf('%') < 0) {
            return template;
        }
        String[] levels = template.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String value = switch (levels[i]) {
                case CLIENT_ID -> clientId;
                case USERNAME -> username;
                case CERTIFICATE_CN -> certificateCn;
                default -> levels[i];
            };
            @SuppressWarnings("ReferenceEquality") // a placeholder was replaced: the switch returned another string
            boolean substituted = value != levels[i];
            if (substituted && !usableLevel(value)) {
                return null;
            }
            levels[i] = value;
        }
        return String.join("/", levels);
    }

    private static boolean isPlaceholder(String level) {
        return level.equals(CLIENT_ID) || level.equals(USERNAME) || level.equals(CERTIFICATE_CN);
    }

    private static boolean usableLevel(String value) {
        if (value == null || value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '/' || c == '+' || c == '#' || c == '\u0000') {
                return false;
            }
        }
        return true;
    }
}
