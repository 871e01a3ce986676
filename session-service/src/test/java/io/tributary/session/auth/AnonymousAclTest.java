package io.tributary.session.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnonymousAclTest {

    @Test
    void not_configured_when_both_lists_are_empty_or_absent() {
        assertThat(new AuthProperties.AnonymousAcl(List.of(), List.of()).configured())
                .isFalse();
        assertThat(new AuthProperties.AnonymousAcl(null, null).configured()).isFalse();
    }

    @Test
    void configured_by_either_list_and_then_an_empty_one_allows_nothing() {
        AuthProperties.AnonymousAcl subscribeOnly = new AuthProperties.AnonymousAcl(null, List.of("public/#"));
        assertThat(subscribeOnly.configured()).isTrue();
        assertThat(subscribeOnly.publish()).isEmpty();
    }

    @Test
    void entries_must_be_acl_filters() {
        assertThat(new AuthProperties.AnonymousAcl(List.of("public/#", "anon/%c/#"), List.of("+/x")).isEntriesValid())
                .isTrue();
        assertThat(new AuthProperties.AnonymousAcl(List.of("a/#/b"), List.of()).isEntriesValid())
                .isFalse();
        assertThat(new AuthProperties.AnonymousAcl(List.of(), List.of("a/x%c")).isEntriesValid())
                .isFalse();
    }
}
