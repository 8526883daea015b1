package io.tally.stream;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.tally.core.logging.InvocationLog;
import io.tally.core.logging.LambdaLogging;
import io.tally.stream.rebuild.WatermarkPruner;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClientBuilder;

/**
 * Removes the watermarks and cursors of stream shards that are gone ({@link WatermarkPruner}), on a schedule: the
 * template runs it hourly; a run continues the pass in progress until its invocation is nearly out of time, and
 * begins a new pass once a day. Environment: {@code TABLE_NAME}, {@code AWS_REGION}, optional
 * {@code DYNAMODB_ENDPOINT} and {@code PRUNE_SEGMENTS} (the parallel scan segments of a pass that begins, default
 * {@value WatermarkPruner#DEFAULT_SEGMENTS}). Returns a one-line summary, which it also logs; a run that DynamoDB
 * throttled, or that could not reach it, fails, and the next run continues from the stored position.
 */
public final class WatermarkPruneHandler implements RequestHandler<ScheduledEvent, String> {
    private static final Logger LOG = LoggerFactory.getLogger(WatermarkPruneHandler.class);

    static final String PRUNE_SEGMENTS = "PRUNE_SEGMENTS";
    /** A new pass over the table begins a day after the last one began; the runs in between continue it. */
    static final Duration PASS_INTERVAL = Duration.ofDays(1);
    /**
     * A run stops taking pages when less than this is left of its invocation: a page and its removals fit, in each
     * segment (at most one 1 MB page each, its removals in UpdateItems of 100 watermarks).
     */
    static final Duration PAGE_MARGIN = Duration.ofMinutes(2);

    private final WatermarkPruner pruner;

    /** Used by Lambda: the clients are built once per container. */
    public WatermarkPruneHandler() {
        this(fromEnvironment(LambdaLogging.environment()));
    }

    WatermarkPruneHandler(WatermarkPruner pruner) {
        this.pruner = Objects.requireNonNull(pruner, "pruner");
    }

    static WatermarkPruner fromEnvironment(Map<String, String> env) {
        String table = env.get(StreamWiring.TABLE_NAME);
        String region = env.get(StreamWiring.AWS_REGION);
        if (table == null || table.isBlank() || region == null || region.isBlank()) {
            throw new IllegalStateException("environment variables TABLE_NAME and AWS_REGION must be set");
        }
        DynamoDbClientBuilder dynamo = DynamoDbClient.builder().region(Region.of(region))
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        DynamoDbStreamsClientBuilder streams = DynamoDbStreamsClient.builder().region(Region.of(region))
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        String endpoint = env.get(StreamWiring.DYNAMODB_ENDPOINT);
        if (endpoint != null && !endpoint.isBlank()) {
            dynamo.endpointOverride(URI.create(endpoint.trim()));
            streams.endpointOverride(URI.create(endpoint.trim()));
        }
        return new WatermarkPruner(dynamo.build(), streams.build(), table, segments(env.get(PRUNE_SEGMENTS)));
    }

    private static int segments(String value) {
        if (value == null || value.isBlank()) {
            return WatermarkPruner.DEFAULT_SEGMENTS;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(PRUNE_SEGMENTS + " must be a number of segments, 1 to "
                    + WatermarkPruner.MAX_SEGMENTS + ", not " + value, e);
        }
    }

    @Override
    public String handleRequest(ScheduledEvent event, Context context) {
        try (InvocationLog log = InvocationLog.open(context == null ? null : context.getAwsRequestId())) {
            WatermarkPruner.Report report = pruner.resume(PASS_INTERVAL,
                    () -> context == null || context.getRemainingTimeInMillis() > PAGE_MARGIN.toMillis(),
                    scanned -> { });
            String summary = report.summary();
            LOG.info(summary);
            return summary;
        }
    }
}
