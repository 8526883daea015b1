package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimestampsTest {
    @Test
    void format_alwaysHasMillisecondsAndZ() {
        assertThat(Timestamps.format(Instant.parse("2019-01-22T11:15:00Z"))).isEqualTo("2019-01-22T11:15:00.000Z");
        assertThat(Timestamps.format(Instant.parse("2019-01-22T10:28:49.930123Z"))).isEqualTo("2019-01-22T10:28:49.930Z");
    }

    @Test
    void parse_roundTripsFormat() {
        Instant t = Instant.parse("2019-01-22T10:28:49.930Z");
        assertThat(Timestamps.parse(Timestamps.format(t))).isEqualTo(t);
    }

    @Test
    void parse_garbage_isMalformedItem() {
        assertThatThrownBy(() -> Timestamps.parse("yesterday")).isInstanceOf(MalformedItemException.class);
    }

    @Test
    void truncate_dropsBelowMilliseconds() {
        assertThat(Timestamps.truncate(Instant.parse("2019-01-22T10:28:49.930999Z")))
                .isEqualTo(Instant.parse("2019-01-22T10:28:49.930Z"));
    }
}
