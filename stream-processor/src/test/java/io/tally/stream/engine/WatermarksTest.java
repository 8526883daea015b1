package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WatermarksTest {

    @Test
    void attributeName_isStableShortAndLegal() {
        String name = Watermarks.attributeName("shardId-00000001714564800000-0a1b2c3d");

        // Pinned: a different name for the same shard would apply its records a second time.
        assertThat(name).isEqualTo("wm_" + Watermarks.token("shardId-00000001714564800000-0a1b2c3d"));
        assertThat(Watermarks.token("abc")).isEqualTo("xj4bnp4pahh6uqkb");
        assertThat(name).matches("wm_[a-z2-7]{16}");
    }

    @Test
    void differentShards_getDifferentNames() {
        assertThat(Watermarks.attributeName("shardId-00000001714564800000-0a1b2c3d"))
                .isNotEqualTo(Watermarks.attributeName("shardId-00000001714564800000-0a1b2c3e"));
    }

    @Test
    void paddedSequences_compareAsNumbers() {
        assertThat(SourceRecord.pad("999").compareTo(SourceRecord.pad("1000"))).isNegative();
        assertThat(SourceRecord.pad("1000")).hasSize(SourceRecord.SEQUENCE_DIGITS);
    }
}
