package io.tributary.common.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.topic.TopicFilters;
import org.junit.jupiter.api.Test;

class TenantNamespaceTest {

    private final TenantNamespace acme = TenantNamespace.of("acme");

    @Test
    void the_global_namespace_uses_names_as_they_are() {
        TenantNamespace global = TenantNamespace.of(null);
        assertThat(global).isSameAs(TenantNamespace.GLOBAL);
        assertThat(global.topic("meters/1")).isEqualTo("meters/1");
        assertThat(global.filter("$share/g/meters/+")).isEqualTo("$share/g/meters/+");
        assertThat(global.clientFilter("#")).isEqualTo("#");
        assertThat(global.owns("meters/#")).isTrue();
        assertThat(global.owns("$tenant/acme/meters/#")).isFalse();
    }

    @Test
    void a_tenants_topics_and_filters_are_mounted_under_its_prefix_and_come_back_without_it() {
        assertThat(acme.topic("meters/1")).isEqualTo("$tenant/acme/meters/1");
        assertThat(acme.filter("#")).isEqualTo("$tenant/acme/#");
        assertThat(acme.filter("+/1")).isEqualTo("$tenant/acme/+/1");
        assertThat(acme.filter("$share/g/meters/+")).isEqualTo("$share/g/$tenant/acme/meters/+");
        assertThat(acme.clientFilter("$share/g/$tenant/acme/meters/+")).isEqualTo("$share/g/meters/+");
        assertThat(acme.clientFilter("$tenant/acme/#")).isEqualTo("#");
        assertThat(TenantTopics.visible(acme.topic("meters/1"))).isEqualTo("meters/1");
        assertThat(TenantTopics.tenantOf(acme.topic("meters/1"))).isEqualTo("acme");
        assertThat(TenantTopics.tenantOf("meters/1")).isNull();
        assertThat(TenantTopics.visible("meters/1")).isEqualTo("meters/1");
    }

    @Test
    void sys_filters_stay_global_so_every_client_reads_the_brokers_statistics() {
        assertThat(acme.filter("$SYS/broker/#")).isEqualTo("$SYS/broker/#");
        assertThat(acme.owns("$SYS/broker/#")).isTrue();
    }

    @Test
    void a_tenants_wildcards_match_only_its_own_topics_and_global_wildcards_none_of_a_tenants() {
        String acmeMeter = acme.topic("meters/1");
        String blueMeter = TenantNamespace.of("blue").topic("meters/1");
        assertThat(TopicFilters.matches(acme.filter("#"), acmeMeter)).isTrue();
        assertThat(TopicFilters.matches(acme.filter("meters/+"), acmeMeter)).isTrue();
        assertThat(TopicFilters.matches(acme.filter("#"), blueMeter)).isFalse();
        assertThat(TopicFilters.matches(acme.filter("+/+"), blueMeter)).isFalse();
        // A tenant id that is a prefix of another's does not reach into it.
        assertThat(TopicFilters.matches(
                        acme.filter("#"), TenantNamespace.of("acme2").topic("x")))
                .isFalse();
        assertThat(TopicFilters.matches("#", acmeMeter)).isFalse();
        assertThat(TopicFilters.matches("+/acme/meters/1", acmeMeter)).isFalse();
        assertThat(acme.owns(acme.filter("$share/g/#"))).isTrue();
        assertThat(acme.owns(TenantNamespace.of("blue").filter("#"))).isFalse();
        assertThat(acme.owns("meters/#")).isFalse();
    }

    @Test
    void the_reserved_level_and_tenant_ids() {
        assertThat(TenantTopics.isReserved("$tenant")).isTrue();
        assertThat(TenantTopics.isReserved("$tenant/acme/x")).isTrue();
        assertThat(TenantTopics.isReserved("$tenants/x")).isFalse();
        assertThat(TenantTopics.isReserved("tenant/x")).isFalse();
        assertThat(TenantTopics.idProblem("acme-2")).isNull();
        assertThat(TenantTopics.idProblem("Acme")).contains("lower-case");
        assertThat(TenantTopics.idProblem("-acme")).isNotNull();
        assertThat(TenantTopics.idProblem("a/b")).isNotNull();
        assertThat(TenantTopics.idProblem("a".repeat(64))).isNotNull();
        assertThat(TenantTopics.idProblem("")).isNotNull();
        assertThat(TenantTopics.idProblem(null)).isNotNull();
    }
}
