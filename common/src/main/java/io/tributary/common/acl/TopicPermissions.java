package io.tributary.common.acl;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.topic.FilterCoverage;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicTrie;
import java.util.List;

/**
 * What one connection may publish and subscribe to, compiled once at CONNECT from the resolved ACL that
 * session-service returned. Checks are local and allocation-light (a trie walk per PUBLISH), so enforcing ACLs costs
 * no remote call per packet. Immutable, safe to share.
 */
public final class TopicPermissions {

    /** No ACL: anonymous connections (only when configured) and connections accepted by an older session-service. */
    public static final TopicPermissions UNRESTRICTED = new TopicPermissions(null, null, null);

    private final TopicTrie<String, Boolean> publish;
    private final List<String> subscribe;
    private final ConnectApi.Acl source;

    private TopicPermissions(TopicTrie<String, Boolean> publish, List<String> subscribe, ConnectApi.Acl source) {
        this.publish = publish;
        this.subscribe = subscribe;
        this.source = source;
    }

    /** @param acl resolved filters (no placeholders); null means unrestricted */
    public static TopicPermissions of(ConnectApi.Acl acl) {
        if (acl == null) {
            return UNRESTRICTED;
        }
        TopicTrie<String, Boolean> trie = new TopicTrie<>();
        for (String filter : acl.publish()) {
            trie.put(filter, filter, Boolean.TRUE);
        }
        return new TopicPermissions(trie, List.copyOf(acl.subscribe()), acl);
    }

    public boolean unrestricted() {
        return source == null;
    }

    /** Whether a PUBLISH (or a will, or a retained message) to {@code topic} is allowed. */
    public boolean mayPublish(String topic) {
        if (publish == null) {
            return true;
        }
        boolean[] found = {false};
        publish.match(topic, (filter, allowed) -> found[0] = true);
        return found[0];
    }

    /**
     * Whether a SUBSCRIBE to {@code filter} is allowed: some ACL entry must cover every topic the filter can match.
     * For a shared subscription the inner filter is checked; the share name is not part of the ACL.
     */
    public boolean maySubscribe(String filter) {
        if (subscribe == null) {
            return true;
        }
        String inner = SharedFilters.innerFilter(filter);
        for (String allowed : subscribe) {
            if (FilterCoverage.covers(allowed, inner)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return source == null ? "unrestricted" : "publish " + source.publish() + ", subscribe " + source.subscribe();
    }
}
