package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdsTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "user-8790", "A_b-9", "0123456789012345678901234567890123456789012345678901234567890123"})
    void valid_identifiersAreAccepted(String id) {
        assertThat(Ids.isValid(id)).isTrue();
        assertThat(Ids.require(id)).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a#b", "a:b", "a b", "é", "a/b", "01234567890123456789012345678901234567890123456789012345678901234"})
    void invalid_identifiersAreRejected(String id) {
        assertThat(Ids.isValid(id)).isFalse();
        assertThatThrownBy(() -> Ids.require(id)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void null_isInvalid() {
        assertThat(Ids.isValid(null)).isFalse();
    }

    @Test
    void generated_idsAreValidAndSortInCreationOrder() {
        Ids ids = Ids.timeOrdered(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
        List<String> generated = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            generated.add(ids.next());
        }
        assertThat(generated).allMatch(Ids::isValid).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void generated_idsFollowTheClock() {
        Instant[] now = {Instant.parse("2026-01-01T00:00:00Z")};
        Clock clock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        Ids ids = Ids.timeOrdered(clock);
        String earlier = ids.next();
        now[0] = now[0].plusSeconds(1);
        assertThat(ids.next()).isGreaterThan(earlier);
        assertThat(com.github.f4b6a3.ulid.Ulid.from(earlier).getInstant()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    }
}
