package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.stream.engine.Watermarks;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class WatermarkPrunerTest {
    private static final String LIVE = Watermarks.attributeName("shardId-live");
    private static final String GONE = Watermarks.attributeName("shardId-gone");
    private static final String GONE_TOO = Watermarks.attributeName("shardId-gone-too");
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
        assertThat(WatermarkPruner.staleWatermarks(item(LIVE, GONE, GONE_TOO), LIVE_TOKENS))
                .containsOnlyKeys(GONE, GONE_TOO);
        assertThat(WatermarkPruner.staleWatermarks(item(LIVE), LIVE_TOKENS)).isEmpty();
    }

    @Test
    void removal_itemWithoutStaleWatermarks_isNoRequest() {
        assertThat(WatermarkPruner.removal("t", item(LIVE), LIVE_TOKENS)).isEmpty();
        assertThat(WatermarkPruner.removal("t", item(), LIVE_TOKENS)).isEmpty();
    }

    @Test
    void removal_removesEachStaleWatermarkOnConditionItIsUnchanged() {
        UpdateItemRequest request = WatermarkPruner.removal("t", item(LIVE, GONE, GONE_TOO), LIVE_TOKENS).orElseThrow();

        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.key()).containsOnlyKeys("pk", "sk");
        assertThat(request.updateExpression()).isEqualTo("REMOVE #w0, #w1");
        assertThat(request.conditionExpression()).isEqualTo("#w0 = :w0 AND #w1 = :w1");
        assertThat(request.expressionAttributeNames().values()).containsExactlyInAnyOrder(GONE, GONE_TOO);
        assertThat(request.expressionAttributeValues().values())
                .allMatch(v -> v.s().equals("0000000000000000000000000000000000000042"));
    }
}
