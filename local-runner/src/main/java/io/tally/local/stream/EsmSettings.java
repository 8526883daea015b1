package io.tally.local.stream;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.tally.core.template.DeploymentTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The settings of the Lambda event source mapping (ESM) that connects the table's stream to the stream processor,
 * named as in {@code CreateEventSourceMapping}.
 *
 * <p>{@link #defaults()} are the values the AWS deployment uses, read from the deployment template
 * ({@code infra/template.yaml}, the stream processor's {@code DynamoDB} event), which is their single source: the
 * local poller filters, retries, bisects and discards like the event source mapping on AWS because it runs with the
 * very same settings. Some differ from AWS's own defaults on purpose (AWS: no bisect, no tumbling window, no
 * ReportBatchItemFailures, no filter); {@code docs/exactly-once.md} says why each value is what it is.
 *
 * @param batchSize                      records per invocation at most (AWS: 1..10000)
 * @param maximumBatchingWindowInSeconds how long to gather records before invoking with less than a full batch
 *                                       (AWS: 0..300)
 * @param maximumRetryAttempts           retries of a failing batch before it goes to the on-failure destination;
 *                                       -1 retries until the records expire (AWS: -1..10000)
 * @param bisectBatchOnFunctionError     split a batch in two when the function fails, to isolate a bad record
 * @param maximumRecordAgeInSeconds      records older than this go to the on-failure destination instead of the
 *                                       function; -1 means no limit (AWS: -1 or 60..604800)
 * @param parallelizationFactor          concurrent batches per shard; only 1 is supported locally
 * @param startingPosition               where a shard without a checkpoint is read from
 * @param tumblingWindowInSeconds        window length for a function that takes {@code DynamodbTimeWindowEvent}
 *                                       (AWS: 0..900)
 * @param reportBatchItemFailures        {@code FunctionResponseTypes: [ReportBatchItemFailures]}: whether the
 *                                       function's {@code batchItemFailures} are honoured; without it AWS treats a
 *                                       response that names failed records as a success
 * @param filterPatterns                 the {@code Pattern} of each filter of {@code FilterCriteria}: a record is
 *                                       delivered when any of them matches it, and passed over otherwise; none
 *                                       delivers every record
 */
@RecordBuilder
public record EsmSettings(
        int batchSize,
        int maximumBatchingWindowInSeconds,
        int maximumRetryAttempts,
        boolean bisectBatchOnFunctionError,
        int maximumRecordAgeInSeconds,
        int parallelizationFactor,
        StartingPosition startingPosition,
        int tumblingWindowInSeconds,
        boolean reportBatchItemFailures,
        List<String> filterPatterns) implements EsmSettingsBuilder.With {

    /** Where to start reading a shard that has no checkpoint. */
    public enum StartingPosition {
        TRIM_HORIZON,
        LATEST
    }

    private static final EsmSettings DEFAULTS = fromTemplate(DeploymentTemplate.bundled());

    public EsmSettings {
        Objects.requireNonNull(startingPosition, "startingPosition");
        checkRange("BatchSize", batchSize, 1, 10_000);
        checkRange("MaximumBatchingWindowInSeconds", maximumBatchingWindowInSeconds, 0, 300);
        checkRange("MaximumRetryAttempts", maximumRetryAttempts, -1, 10_000);
        if (maximumRecordAgeInSeconds != -1 && (maximumRecordAgeInSeconds < 60 || maximumRecordAgeInSeconds > 604_800)) {
            throw new IllegalArgumentException("MaximumRecordAgeInSeconds must be -1 (no limit) or between 60 and "
                    + "604800, not " + maximumRecordAgeInSeconds);
        }
        if (parallelizationFactor != 1) {
            throw new IllegalArgumentException("ParallelizationFactor " + parallelizationFactor
                    + " is not supported by the local stream poller: it reads each shard with one worker "
                    + "(ParallelizationFactor 1), so that a shard's batches stay strictly in order");
        }
        if (startingPosition != StartingPosition.TRIM_HORIZON) {
            throw new IllegalArgumentException("StartingPosition " + startingPosition
                    + " is not supported by the local stream poller: it starts at TRIM_HORIZON, because derived "
                    + "data is only complete if every record of the stream is processed");
        }
        checkRange("TumblingWindowInSeconds", tumblingWindowInSeconds, 0, 900);
        filterPatterns = List.copyOf(Objects.requireNonNull(filterPatterns, "filterPatterns"));
        // Refused here, as Lambda refuses the mapping, rather than when the first shard is read.
        StreamRecordFilter.of(filterPatterns);
    }

    /** The settings of the AWS deployment, from the template this build carries. */
    public static EsmSettings defaults() {
        return DEFAULTS;
    }

    /**
     * The settings of the stream processor's event source mapping in a template. Every setting the poller
     * implements must be there as a literal, except those whose AWS default is also the deployment's choice
     * (MaximumBatchingWindowInSeconds 0, ParallelizationFactor 1, TumblingWindowInSeconds 0, no function response
     * types, no filter), so that a setting can never silently take a local default that differs from AWS's. The
     * batching window may be a {@code !Ref} to a template parameter: locally it is the parameter's default.
     */
    public static EsmSettings fromTemplate(DeploymentTemplate template) {
        DeploymentTemplate.Node p = template.streamEventSourceMapping();
        List<String> responseTypes = p.has("FunctionResponseTypes") ? p.texts("FunctionResponseTypes") : List.of();
        List<String> filterPatterns = p.has("FilterCriteria")
                ? p.get("FilterCriteria").list("Filters").stream().map(filter -> filter.text("Pattern")).toList()
                : List.of();
        return new EsmSettings(
                p.integer("BatchSize"),
                p.has("MaximumBatchingWindowInSeconds")
                        ? p.integerOrParameterDefault("MaximumBatchingWindowInSeconds") : 0,
                p.integer("MaximumRetryAttempts"),
                p.bool("BisectBatchOnFunctionError"),
                p.integer("MaximumRecordAgeInSeconds"),
                p.has("ParallelizationFactor") ? p.integer("ParallelizationFactor") : 1,
                startingPosition(p.text("StartingPosition")),
                p.has("TumblingWindowInSeconds") ? p.integer("TumblingWindowInSeconds") : 0,
                responseTypes.contains("ReportBatchItemFailures"),
                filterPatterns);
    }

    public Duration maximumBatchingWindow() {
        return Duration.ofSeconds(maximumBatchingWindowInSeconds);
    }

    public Duration tumblingWindow() {
        return Duration.ofSeconds(tumblingWindowInSeconds);
    }

    /** Whether records can be too old to invoke the function with. */
    public boolean limitsRecordAge() {
        return maximumRecordAgeInSeconds != -1;
    }

    /** Whether a failing batch is eventually given up on (rather than retried until its records expire). */
    public boolean limitsRetries() {
        return maximumRetryAttempts != -1;
    }

    private static StartingPosition startingPosition(String value) {
        for (StartingPosition position : StartingPosition.values()) {
            if (position.name().equals(value)) {
                return position;
            }
        }
        throw new IllegalArgumentException("StartingPosition " + value + " is not supported by the local stream poller"
                + " (TRIM_HORIZON or LATEST)");
    }

    private static void checkRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", not " + value);
        }
    }
}
