package io.tributary.common.acl;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopicPermissionsTest {

    private final TopicPermissions meter = TopicPermissions.of(
            new ConnectApi.Acl(List.of("meters/m-1/#", "status/+"), List.of("commands/m-1/+", "broadcast/#")));

    @Test
    void publish_needs_a_matching_entry() {
        assertThat(meter.mayPublish("meters/m-1/power")).isTrue();
        assertThat(meter.mayPublish("meters/m-1")).isTrue();
        assertThat(meter.mayPublish("status/online")).isTrue();
        assertThat(meter.mayPublish("meters/m-2/power")).isFalse();
        assertThat(meter.mayPublish("status/a/b")).isFalse();
    }

    @Test
    void subscribe_needs_an_entry_covering_the_whole_filter() {
        assertThat(meter.maySubscribe("commands/m-1/reset")).isTrue();
        assertThat(meter.maySubscribe("commands/m-1/+")).isTrue();
        assertThat(meter.maySubscribe("commands/m-1/#")).isFalse();
        assertThat(meter.maySubscribe("commands/#")).isFalse();
        assertThat(meter.maySubscribe("#")).isFalse();
        assertThat(meter.maySubscribe("broadcast/x/y")).isTrue();
    }

    @Test
    void shared_subscriptions_are_checked_by_their_filter() {
        assertThat(meter.maySubscribe("$share/g/broadcast/x")).isTrue();
        assertThat(meter.maySubscribe("$share/g/commands/m-2/x")).isFalse();
    }

    @Test
    void empty_lists_allow_nothing_and_no_acl_allows_everything() {
        TopicPermissions none = TopicPermissions.of(new ConnectApi.Acl(List.of(), List.of()));
        assertThat(none.mayPublish("a")).isFalse();
        assertThat(none.maySubscribe("a")).isFalse();
        assertThat(TopicPermissions.of(null).mayPublish("a")).isTrue();
        assertThat(TopicPermissions.of(null).maySubscribe("#")).isTrue();
    }

    @Test
    void hash_does_not_grant_dollar_topics() {
        TopicPermissions all = TopicPermissions.of(new ConnectApi.Acl(List.of("#"), List.of("#")));
        assertThat(all.mayPublish("a/b")).isTrue();
        assertThat(all.mayPublish("$SYS/x")).isFalse();
        assertThat(all.maySubscribe("$SYS/#")).isFalse();
    }
}
