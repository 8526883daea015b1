package io.tally.local.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EsmSettingsTest {
    @Test
    void defaults_areTheValuesOfTheAwsDeployment() {
        EsmSettings defaults = EsmSettings.defaults();

        assertThat(defaults.batchSize()).isEqualTo(100);
        assertThat(defaults.maximumBatchingWindow()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.maximumRetryAttempts()).isEqualTo(10);
        assertThat(defaults.bisectBatchOnFunctionError()).isTrue();
        assertThat(defaults.maximumRecordAgeInSeconds()).isEqualTo(86_400);
        assertThat(defaults.parallelizationFactor()).isEqualTo(1);
        assertThat(defaults.startingPosition()).isEqualTo(EsmSettings.StartingPosition.TRIM_HORIZON);
        assertThat(defaults.tumblingWindow()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.reportBatchItemFailures()).isTrue();
    }

    @Test
    void parallelizationFactorOtherThanOne_rejectedWithTheReason() {
        assertThatThrownBy(() -> EsmSettings.defaults().withParallelizationFactor(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ParallelizationFactor 2 is not supported")
                .hasMessageContaining("strictly in order");
    }

    @Test
    void startingPositionLatest_rejectedWithTheReason() {
        assertThatThrownBy(() -> EsmSettings.defaults().withStartingPosition(EsmSettings.StartingPosition.LATEST))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("StartingPosition LATEST is not supported");
    }

    @Test
    void valuesOutsideAwsRanges_rejectedNamingTheSetting() {
        EsmSettings defaults = EsmSettings.defaults();

        assertThatThrownBy(() -> defaults.withBatchSize(0)).hasMessageContaining("BatchSize");
        assertThatThrownBy(() -> defaults.withBatchSize(10_001)).hasMessageContaining("BatchSize");
        assertThatThrownBy(() -> defaults.withMaximumBatchingWindowInSeconds(301))
                .hasMessageContaining("MaximumBatchingWindowInSeconds");
        assertThatThrownBy(() -> defaults.withMaximumRetryAttempts(-2)).hasMessageContaining("MaximumRetryAttempts");
        assertThatThrownBy(() -> defaults.withMaximumRecordAgeInSeconds(59))
                .hasMessageContaining("MaximumRecordAgeInSeconds must be -1 (no limit) or between 60 and 604800");
        assertThatThrownBy(() -> defaults.withTumblingWindowInSeconds(901)).hasMessageContaining("TumblingWindowInSeconds");
    }

    @Test
    void unlimitedRetriesAndAge_acceptedAsMinusOne() {
        EsmSettings unlimited = EsmSettings.defaults().withMaximumRetryAttempts(-1).withMaximumRecordAgeInSeconds(-1);

        assertThat(unlimited.limitsRetries()).isFalse();
        assertThat(unlimited.limitsRecordAge()).isFalse();
    }
}
