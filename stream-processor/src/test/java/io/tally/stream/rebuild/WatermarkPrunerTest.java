package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.stream.engine.Watermarks;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class WatermarkPrunerTest {
    private static final String LIVE = Watermarks.attributeName("shardId-live");
    private static final String GONE = Watermarks.attributeName("shardId-gone");
    private static final String GONE_TOO = Watermarks.attributeName("shardId-gone-too");
    private static final String GONE_THIRD = Watermarks.attributeName("shardId-gone-third");
    private static final Set<String> LIVE_TOKENS = Set.of(Watermarks.token("shardId-live"));

    private static Map<String, AttributeValue> item(String... watermarks) {
        var item = new java.util.HashMap<String, AttributeValue>(Map.of(
                "pk", AttributeValue.fromS("USER#u1"), "sk", AttributeValue.fromS("#STATS#"),
                "posts", AttributeValue.fromN("3"), "entityType", AttributeValue.fromS("UserStats")));
        for (String watermark : watermarks) {
            item.put(watermark, AttributeValue.fromS("0000000000000000000000000000000000000042"));
        }
        return item;
    }

    @Test
    void staleWatermarks_onlyWatermarksOfShardsNotLive() {
        assertThat(WatermarkRemovals.staleWatermarks(item(LIVE, GONE, GONE_TOO), LIVE_TOKENS))
                .containsOnlyKeys(GONE, GONE_TOO);
        assertThat(WatermarkRemovals.staleWatermarks(item(LIVE), LIVE_TOKENS)).isEmpty();
    }

    @Test
    void removals_itemWithoutStaleWatermarks_isNoRequest() {
        assertThat(WatermarkRemovals.removals("t", item(LIVE), LIVE_TOKENS)).isEmpty();
        assertThat(WatermarkRemovals.removals("t", item(), LIVE_TOKENS)).isEmpty();
    }

    /** A watermark of a gone shard is never read: an item keeps two, and a write of the item for them is spared. */
    @Test
    void removals_itemWithAtMostTwoStaleWatermarks_keepsThem() {
        assertThat(WatermarkRemovals.KEPT_GONE_WATERMARKS).isEqualTo(2);
        assertThat(WatermarkRemovals.removals("t", item(LIVE, GONE), LIVE_TOKENS)).isEmpty();
        assertThat(WatermarkRemovals.removals("t", item(LIVE, GONE, GONE_TOO), LIVE_TOKENS)).isEmpty();
        assertThat(WatermarkRemovals.removals("t", item(GONE, GONE_TOO), LIVE_TOKENS)).isEmpty();
    }

    /** Past two, all of them go, not just the third: an item written every generation pays one removal in three. */
    @Test
    void removals_removeEachStaleWatermarkOnConditionItIsUnchanged() {
        List<UpdateItemRequest> requests = WatermarkRemovals.removals("t", item(LIVE, GONE, GONE_TOO, GONE_THIRD),
                LIVE_TOKENS);

        assertThat(requests).hasSize(1);
        UpdateItemRequest request = requests.get(0);
        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.key()).containsOnlyKeys("pk", "sk");
        assertThat(request.updateExpression()).isEqualTo("REMOVE #w0, #w1, #w2");
        assertThat(request.conditionExpression()).isEqualTo("#w0 = :w0 AND #w1 = :w1 AND #w2 = :w2");
        assertThat(request.expressionAttributeNames().values()).containsExactlyInAnyOrder(GONE, GONE_TOO,
                GONE_THIRD);
        assertThat(request.expressionAttributeValues().values())
                .allMatch(v -> v.s().equals("0000000000000000000000000000000000000042"));
    }

    /** Issue 38: one request for 151 watermarks has 301 operators, which DynamoDB refuses. */
    @Test
    void removals_151StaleWatermarks_areTwoRequestsOfAtMost100() {
        List<UpdateItemRequest> requests = WatermarkRemovals.removals("t", item(gone(151)), LIVE_TOKENS);

        assertThat(requests).extracting(r -> r.expressionAttributeNames().size()).containsExactly(100, 51);
    }

    @Test
    void removals_1000StaleWatermarks_chunksOf100_eachWithinDynamoDbsLimits_eachConditionedOnItsOwnValues() {
        String[] watermarks = gone(1_000);
        Map<String, AttributeValue> item = item(watermarks);
        item.put(LIVE, AttributeValue.fromS("0000000000000000000000000000000000000001"));
        for (int i = 0; i < watermarks.length; i++) {
            item.put(watermarks[i], AttributeValue.fromS(String.format("%040d", i)));
        }

        List<UpdateItemRequest> requests = WatermarkRemovals.removals("t", item, LIVE_TOKENS);

        assertThat(requests).hasSize(10);
        Set<String> removed = new HashSet<>();
        for (UpdateItemRequest request : requests) {
            assertThat(request.expressionAttributeNames()).hasSize(100);
            assertThat(WatermarkRemovals.conditionOperators(request.conditionExpression())).isEqualTo(199)
                    .isLessThanOrEqualTo(WatermarkRemovals.MAX_CONDITION_OPERATORS);
            assertThat(request.conditionExpression().getBytes(StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(WatermarkRemovals.MAX_EXPRESSION_LENGTH);
            assertThat(request.updateExpression().getBytes(StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(WatermarkRemovals.MAX_EXPRESSION_LENGTH);
            // Each placeholder's value is the value read for that very watermark: the chunk's own, no other.
            request.expressionAttributeNames().forEach((placeholder, name) -> assertThat(request
                    .expressionAttributeValues().get(":" + placeholder.substring(1))).isEqualTo(item.get(name)));
            assertThat(request.expressionAttributeValues()).hasSize(100);
            removed.addAll(request.expressionAttributeNames().values());
        }
        assertThat(removed).containsExactlyInAnyOrder(watermarks);
    }

    @Test
    void conditionOperators_countsComparisonsAndAnds() {
        assertThat(WatermarkRemovals.conditionOperators("#w0 = :w0")).isEqualTo(1);
        assertThat(WatermarkRemovals.conditionOperators("#w0 = :w0 AND #w1 = :w1 AND #w2 = :w2")).isEqualTo(5);
    }

    private static String[] gone(int count) {
        String[] watermarks = new String[count];
        for (int i = 0; i < count; i++) {
            watermarks[i] = Watermarks.attributeName(String.format("shardId-%08d-gone", i));
        }
        return watermarks;
    }

    @Test
    void itemFailures_theItemsOwnRefusals_areReportedAndPassed_throttlingServerAndTableErrorsStopThePass() {
        assertThat(ItemFailures.isTheItems(error(400, "ValidationException"))).isTrue();
        assertThat(ItemFailures.isTheItems(error(400, "ItemCollectionSizeLimitExceededException"))).isTrue();
        assertThat(ItemFailures.isTheItems(error(400, "TransactionConflictException"))).isTrue();

        assertThat(ItemFailures.isTheItems(error(400, "ProvisionedThroughputExceededException"))).isFalse();
        assertThat(ItemFailures.isTheItems(error(400, "ThrottlingException"))).isFalse();
        assertThat(ItemFailures.isTheItems(error(400, "RequestLimitExceeded"))).isFalse();
        assertThat(ItemFailures.isTheItems(error(500, "InternalServerError"))).isFalse();
        assertThat(ItemFailures.isTheItems(error(503, "ServiceUnavailable"))).isFalse();
        assertThat(ItemFailures.isTheItems(error(400, "ResourceNotFoundException"))).isFalse();
        assertThat(ItemFailures.isTheItems(error(400, "AccessDeniedException"))).isFalse();
        assertThat(ItemFailures.isTheItems(SdkClientException.create("Unable to execute HTTP request"))).isFalse();
    }

    @Test
    void itemFailures_describe_namesTheCodeAndDynamoDbsMessage() {
        assertThat(ItemFailures.describe(error(400, "ValidationException")))
                .isEqualTo("ValidationException: refused");
    }

    private static DynamoDbException error(int status, String code) {
        return (DynamoDbException) DynamoDbException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("refused").build()).build();
    }
}
