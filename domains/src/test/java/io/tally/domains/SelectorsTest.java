package io.tally.domains;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.domains.catalogue.Selectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SelectorsTest {
    @ParameterizedTest
    @ValueSource(strings = {"global-cycle:5", "user-cycle:1", "global-cycle:0", "user-cycle:999999999", "back-catalogue"})
    void valid_selectorsAreAccepted(String selector) {
        assertThat(Selectors.isValid(selector)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "back-catalogue:4", "global-cycle:", "global-cycle:05", "global-cycle:-1",
            "user-cycle:1000000000", "weekly:3", "GLOBAL-CYCLE:5", "global-cycle:5 "})
    void invalid_selectorsAreRejected(String selector) {
        assertThat(Selectors.isValid(selector)).isFalse();
    }
}
