package io.tally.local.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.template.DeploymentTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EsmSettingsTest {
    private static final Path TEMPLATE = Path.of("..", "infra", "template.yaml");

    @Test
    void theBatchingWindow_isTheTemplateParametersDefault(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        String template = Files.readString(TEMPLATE);
        String parameter = "  StreamBatchingWindowSeconds:\n    Type: Number\n    Default: 0\n";
        assertThat(template).contains(parameter);
        Path changed = dir.resolve("template.yaml");
        Files.writeString(changed, template.replace(parameter, parameter.replace("Default: 0", "Default: 2")));

        assertThat(EsmSettings.fromTemplate(DeploymentTemplate.read(changed)).maximumBatchingWindow())
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void defaults_areTheValuesOfTheAwsDeployment() {
        EsmSettings defaults = EsmSettings.defaults();

        assertThat(defaults.batchSize()).isEqualTo(1000);
        assertThat(defaults.maximumBatchingWindow()).isEqualTo(Duration.ZERO);
        assertThat(defaults.maximumRetryAttempts()).isEqualTo(-1);
        assertThat(defaults.bisectBatchOnFunctionError()).isTrue();
        assertThat(defaults.maximumRecordAgeInSeconds()).isEqualTo(82_800);
        assertThat(defaults.parallelizationFactor()).isEqualTo(1);
        assertThat(defaults.startingPosition()).isEqualTo(EsmSettings.StartingPosition.TRIM_HORIZON);
        assertThat(defaults.tumblingWindow()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.reportBatchItemFailures()).isTrue();
        // The echo of our own writes is dropped (infra's StreamFilterTest has the cases).
        assertThat(defaults.filterPatterns()).hasSize(4)
                .allSatisfy(pattern -> assertThat(pattern).startsWith("{\"dynamodb\": "));
    }

    @Test
    void defaults_areReadFromTheCheckoutsTemplate() {
        assertThat(EsmSettings.defaults()).isEqualTo(EsmSettings.fromTemplate(DeploymentTemplate.read(TEMPLATE)));
    }

    @Test
    void fromTemplate_followsAnEditOfTheTemplate() throws IOException {
        String edited = Files.readString(TEMPLATE)
                .replace("BatchSize: 1000", "BatchSize: 250")
                .replace("MaximumRetryAttempts: -1", "MaximumRetryAttempts: 7")
                .replace("BisectBatchOnFunctionError: true", "BisectBatchOnFunctionError: false");

        EsmSettings settings = EsmSettings.fromTemplate(write(edited));

        assertThat(settings.batchSize()).isEqualTo(250);
        assertThat(settings.maximumRetryAttempts()).isEqualTo(7);
        assertThat(settings.bisectBatchOnFunctionError()).isFalse();
    }

    @Test
    void fromTemplate_parameterWhereTheLocalPollerNeedsALiteral_namesTheSetting() throws IOException {
        String edited = Files.readString(TEMPLATE).replace("BatchSize: 1000", "BatchSize: !Ref StreamBatchSize");

        assertThatThrownBy(() -> EsmSettings.fromTemplate(write(edited)))
                .hasMessageContaining("Resources.StreamProcessorFunction.Properties.Events.Stream.Properties.BatchSize");
    }

    @Test
    void fromTemplate_settingAwsWouldDefaultDifferently_mustBeWrittenOut() throws IOException {
        // AWS's default MaximumRetryAttempts is -1: a template without it must not run locally with another value.
        String edited = Files.readString(TEMPLATE).replace("MaximumRetryAttempts: -1", "");

        assertThatThrownBy(() -> EsmSettings.fromTemplate(write(edited))).hasMessageContaining("MaximumRetryAttempts is missing");
    }

    @Test
    void fromTemplate_withoutFilterCriteria_deliversEveryRecord() throws IOException {
        String template = Files.readString(TEMPLATE);
        int begin = template.indexOf("            FilterCriteria:");
        int end = template.indexOf("            # END stream filter");
        String edited = template.substring(0, begin) + template.substring(end);

        assertThat(EsmSettings.fromTemplate(write(edited)).filterPatterns()).isEmpty();
    }

    @Test
    void filterPatternEventRulerRefuses_rejectedAsLambdaRejectsTheMapping() {
        assertThatThrownBy(() -> EsmSettings.defaults().withFilterPatterns(java.util.List.of("{\"dynamodb\": ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FilterCriteria.Filters[0].Pattern");
    }

    private static DeploymentTemplate write(String yaml) throws IOException {
        Path file = Files.createTempFile("template", ".yaml");
        Files.writeString(file, yaml);
        return DeploymentTemplate.read(file);
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
