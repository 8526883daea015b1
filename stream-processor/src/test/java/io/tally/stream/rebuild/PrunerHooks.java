package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The tests' hands in the watermark pruner's requests, on a client of DynamoDB Local's HTTP server (the embedded
 * client runs no interceptor): small scan pages, and refusals of the UpdateItems of one item, as DynamoDB answers
 * them.
 */
final class PrunerHooks implements ExecutionInterceptor {
    /** Items per scan page, when set: a small table then spans several pages. */
    volatile Integer scanLimit;
    /** An item whose UpdateItems DynamoDB refuses for its own sake, as it refuses an item past its limits. */
    volatile Key invalid;
    /** An item whose UpdateItems DynamoDB throttles, after the SDK's retries. */
    volatile Key throttled;
    /** The keys of every item an unfiltered scan (the pruning, not the cursors' check) returned, as they came. */
    final List<Key> scanned = new CopyOnWriteArrayList<>();
    /** Every scan's segment, as {@code segment/totalSegments}: the pruning's and the cursors' check's. */
    final List<String> segments = new CopyOnWriteArrayList<>();

    void reset() {
        scanLimit = null;
        invalid = null;
        throttled = null;
        scanned.clear();
        segments.clear();
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        Integer limit = scanLimit;
        if (context.request() instanceof ScanRequest scan && limit != null) {
            return scan.toBuilder().limit(limit).build();
        }
        return context.request();
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof ScanRequest scan) {
            segments.add(scan.segment() + "/" + scan.totalSegments());
        }
        if (!(context.request() instanceof UpdateItemRequest update)) {
            return;
        }
        if (is(update.key(), invalid)) {
            throw DynamoDbException.builder().statusCode(400).awsErrorDetails(AwsErrorDetails.builder()
                    .errorCode("ValidationException").errorMessage("Item size has exceeded the maximum allowed size")
                    .build()).build();
        }
        if (is(update.key(), throttled)) {
            throw ProvisionedThroughputExceededException.builder().statusCode(400).awsErrorDetails(AwsErrorDetails
                    .builder().errorCode("ProvisionedThroughputExceededException")
                    .errorMessage("The level of configured provisioned throughput for the table was exceeded")
                    .build()).build();
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        if (context.response() instanceof ScanResponse page && context.request() instanceof ScanRequest scan
                && scan.filterExpression() == null) {
            page.items().forEach(item -> scanned.add(Key.of(item)));
        }
    }

    private static boolean is(Map<String, AttributeValue> key, Key expected) {
        return expected != null && key.get(TableSchema.PK).s().equals(expected.pk())
                && key.get(TableSchema.SK).s().equals(expected.sk());
    }
}
