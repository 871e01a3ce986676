package io.tributary.common.topic;

/**
 * Whether one topic filter allows everything another one can match: the rule behind subscribe ACLs. A client may
 * subscribe to {@code requested} only if every topic {@code requested} can ever match is also matched by
 * {@code allowed}, otherwise a wide subscription ({@code #}) would slip past an ACL that names a narrow one.
 */
public final class FilterCoverage {

    private FilterCoverage() {}

    /**
     * @param allowed   a valid topic filter (an ACL entry with placeholders already resolved)
     * @param requested a valid topic filter, not shared ({@code $share/g/} already removed)
     */
    public static boolean covers(String allowed, String requested) {
        // Leading wildcards never match '$' topics (MQTT 4.7.2), so "#" cannot grant "$SYS/#" or "$SYS/x".
        if (requested.startsWith("$") && (allowed.startsWith("+") || allowed.startsWith("#"))) {
            return false;
        }
        String[] a = allowed.split("/", -1);
        String[] r = requested.split("/", -1);
        for (int i = 0; i < a.length; i++) {
            if (a[i].equals("#")) {
                // "x/#" also matches "x" itself, so it covers every request from this level on.
                return true;
            }
            if (i >= r.length) {
                return false;
            }
            if (r[i].equals("#")) {
                // The request matches any depth here; only a '#' in the ACL (handled above) allows that.
                return false;
            }
            if (a[i].equals("+")) {
                continue;
            }
            if (r[i].equals("+") || !a[i].equals(r[i])) {
                return false;
            }
        }
        return a.length == r.length;
    }
}
