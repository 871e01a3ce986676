package io.tributary.session.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FilterAdmissionTest {

    @Test
    void validFiltersAreAccepted() {
        assertThat(FilterAdmission.rejection("a/b")).isEqualTo(-1);
        assertThat(FilterAdmission.rejection("a/+/c")).isEqualTo(-1);
        assertThat(FilterAdmission.rejection("#")).isEqualTo(-1);
        assertThat(FilterAdmission.rejection("$SYS/#")).isEqualTo(-1);
    }

    @Test
    void invalidFiltersAreRefusedWith0x8F() {
        assertThat(FilterAdmission.rejection("")).isEqualTo(0x8F);
        assertThat(FilterAdmission.rejection("a/#/b")).isEqualTo(0x8F);
        assertThat(FilterAdmission.rejection("a+")).isEqualTo(0x8F);
        assertThat(FilterAdmission.rejection("a\u0000b")).isEqualTo(0x8F);
    }

    @Test
    void validSharedSubscriptionsAreAcceptedAndInvalidOnesRefusedWith0x8F() {
        assertThat(FilterAdmission.rejection("$share/group/a/b")).isEqualTo(-1);
        assertThat(FilterAdmission.rejection("$share/group/#")).isEqualTo(-1);
        assertThat(FilterAdmission.rejection("$share//a/b")).isEqualTo(0x8F);
        assertThat(FilterAdmission.rejection("$share/g+/a")).isEqualTo(0x8F);
        assertThat(FilterAdmission.rejection("$share/group")).isEqualTo(0x8F);
        assertThat(FilterAdmission.rejection("$share/group/a/#/b")).isEqualTo(0x8F);
    }

    @Test
    void grantedQosIsTheRequestedOneUpToTwo() {
        assertThat(FilterAdmission.grantedQos(0)).isZero();
        assertThat(FilterAdmission.grantedQos(1)).isEqualTo(1);
        assertThat(FilterAdmission.grantedQos(2)).isEqualTo(2);
    }
}
