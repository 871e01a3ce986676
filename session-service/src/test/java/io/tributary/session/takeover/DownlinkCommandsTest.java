package io.tributary.session.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class DownlinkCommandsTest {

    @Test
    void takeoverIsAKeyedCommandWithTheNewEpoch() {
        ProducerRecord<byte[], byte[]> r = DownlinkCommands.takeover("node-1", "client/ä", 42);
        assertThat(r.topic()).isEqualTo("tributary.downlink.node-1");
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("client/ä");
        assertThat(r.value()).isNull();
        assertThat(r.partition()).isNull();
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(r.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.TAKEOVER);
        assertThat(RecordHeaders.readLong(r.headers(), RecordHeaders.EPOCH)).isEqualTo(42L);
        assertThat(r.headers().lastHeader(RecordHeaders.REASON_CODE)).isNull();
    }

    @Test
    void disconnectCarriesItsReasonCode() {
        ProducerRecord<byte[], byte[]> r =
                DownlinkCommands.disconnect("node-2", "c", 7, DownlinkCommands.ADMINISTRATIVE_ACTION);
        assertThat(r.topic()).isEqualTo("tributary.downlink.node-2");
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(r.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.DISCONNECT);
        assertThat(RecordHeaders.readLong(r.headers(), RecordHeaders.EPOCH)).isEqualTo(7L);
        assertThat(RecordHeaders.readInt(r.headers(), RecordHeaders.REASON_CODE))
                .isEqualTo(0x98);
    }
}
