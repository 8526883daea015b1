package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Random;
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
    void parse_readsEveryInstantOfItsOwnFormAsTheJdkDoes() {
        Random random = new Random(41);
        long first = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(first + (long) (random.nextDouble() * (last - first)),
                    random.nextInt(1000) * 1_000_000L);
            String text = DateTimeFormatter.ISO_INSTANT.format(t);
            String own = Timestamps.format(t);
            assertThat(Timestamps.parse(own)).as(own).isEqualTo(Instant.parse(text)).isEqualTo(t);
        }
    }

    @Test
    void parse_otherIsoForms_asTheJdk() {
        for (String text : List.of("2019-01-22T11:15:00Z", "2019-01-22T11:15:00.5Z", "2019-01-22T11:15:00.123456789Z",
                "2016-12-31T23:59:60.000Z", "2024-02-29T00:00:00.000Z")) {
            assertThat(Timestamps.parse(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    /** Every one-character change of a valid text: the same instant as the JDK reads, or refused where it refuses. */
    @Test
    void parse_damagedTexts_agreeWithTheJdk() {
        String valid = "2023-02-28T23:59:59.999Z";
        String alphabet = "0123456789-:.TZz+ x";
        for (int at = 0; at < valid.length(); at++) {
            for (char c : alphabet.toCharArray()) {
                String text = valid.substring(0, at) + c + valid.substring(at + 1);
                Instant expected;
                try {
                    expected = Instant.parse(text);
                } catch (DateTimeParseException e) {
                    expected = null;
                }
                if (expected == null) {
                    assertThatThrownBy(() -> Timestamps.parse(text)).as(text)
                            .isInstanceOf(MalformedItemException.class);
                } else {
                    assertThat(Timestamps.parse(text)).as(text).isEqualTo(expected);
                }
            }
        }
        assertThatThrownBy(() -> Timestamps.parse("2023-02-29T00:00:00.000Z"))
                .isInstanceOf(MalformedItemException.class);
        assertThatThrownBy(() -> Timestamps.parse(null)).isInstanceOf(MalformedItemException.class);
    }

    @Test
    void truncate_dropsBelowMilliseconds() {
        assertThat(Timestamps.truncate(Instant.parse("2019-01-22T10:28:49.930999Z")))
                .isEqualTo(Instant.parse("2019-01-22T10:28:49.930Z"));
    }
}
