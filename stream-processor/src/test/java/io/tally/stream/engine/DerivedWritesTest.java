package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.catalogue.CatalogueKeys;
import io.tally.core.domains.Domains;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class DerivedWritesTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";
    private static final String WM = Watermarks.attributeName(SHARD);
    private static final String FIRST = SourceRecord.pad("1200");
    private static final String LAST = SourceRecord.pad("1350");

    @Test
    void firstAttempt_countersAndDocument_oneUpdateWithWatermarkBelowFirstCondition() {
        DerivedWrite write = new DerivedWrite(BlogKeys.postProjection("p1"), Blog.POST_PROJECTION.entityType(),
                Map.of("comments", 3L),
                Map.of("title", AttributeValue.fromS("Hello"), "status", AttributeValue.fromS("updated")),
                Set.of("updatedAt"), SHARD, FIRST, LAST, null);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request).isEqualTo(UpdateItemRequest.builder()
                .tableName("tally")
                .key(Map.of("pk", AttributeValue.fromS("POSTREF#p1"), "sk", AttributeValue.fromS("#PROJECTION#")))
                .updateExpression("SET #type = if_not_exists(#type, :type), #wm = :last, #s0 = :s0, #s1 = :s1"
                        + " ADD #c0 :c0 REMOVE #r0")
                .conditionExpression("attribute_not_exists(#wm) OR #wm < :first")
                .expressionAttributeNames(Map.of(
                        "#type", "entityType", "#wm", WM,
                        "#s0", "status", "#s1", "title", "#c0", "comments", "#r0", "updatedAt"))
                .expressionAttributeValues(Map.of(
                        ":type", AttributeValue.fromS("PostProjection"),
                        ":last", AttributeValue.fromS(LAST),
                        ":first", AttributeValue.fromS(FIRST),
                        ":s0", AttributeValue.fromS("updated"),
                        ":s1", AttributeValue.fromS("Hello"),
                        ":c0", AttributeValue.fromN("3")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build());
    }

    @Test
    void retry_knownWatermark_conditionIsEquality() {
        String known = SourceRecord.pad("1250");
        DerivedWrite write = new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(),
                Map.of("posts", -1L, "comments", 2L), Map.of(), Set.of(), SHARD, SourceRecord.pad("1300"), LAST, known);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request.updateExpression())
                .isEqualTo("SET #type = if_not_exists(#type, :type), #wm = :last ADD #c0 :c0, #c1 :c1");
        assertThat(request.conditionExpression()).isEqualTo("#wm = :expected");
        assertThat(request.expressionAttributeNames()).containsEntry("#c0", "comments").containsEntry("#c1", "posts");
        assertThat(request.expressionAttributeValues())
                .containsEntry(":expected", AttributeValue.fromS(known))
                .containsEntry(":c0", AttributeValue.fromN("2"))
                .containsEntry(":c1", AttributeValue.fromN("-1"))
                .doesNotContainKey(":first");
    }

    @Test
    void documentRemoval_only_removesEveryOwnedAttribute() {
        DerivedWrite write = new DerivedWrite(CatalogueKeys.selectorEntry("i1"), Catalogue.SELECTOR_ENTRY.entityType(), Map.of(), Map.of(),
                Set.of("selector", "data", "title"), SHARD, FIRST, FIRST, null);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request.updateExpression())
                .isEqualTo("SET #type = if_not_exists(#type, :type), #wm = :last REMOVE #r0, #r1, #r2");
        assertThat(request.expressionAttributeNames())
                .containsEntry("#r0", "data").containsEntry("#r1", "selector").containsEntry("#r2", "title");
    }

    @Test
    void watermarkOnly_whenContributionsCancelOut_stillMovesTheWatermark() {
        DerivedWrite write = new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of(), Map.of(),
                Set.of(), SHARD, FIRST, LAST, null);

        assertThat(DerivedWrites.toUpdateItem("tally", write).updateExpression())
                .isEqualTo("SET #type = if_not_exists(#type, :type), #wm = :last");
    }

    @Test
    void watermarkOf_conditionFailureItem_readsTheShardsAttribute() {
        DerivedWrite write = new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of("posts", 1L),
                Map.of(), Set.of(), SHARD, FIRST, LAST, null);

        assertThat(DerivedWrites.watermarkOf(write, Map.of(WM, AttributeValue.fromS(LAST),
                Watermarks.attributeName("other"), AttributeValue.fromS(FIRST)))).isEqualTo(LAST);
        assertThat(DerivedWrites.watermarkOf(write, Map.of("posts", AttributeValue.fromN("1")))).isNull();
        assertThat(DerivedWrites.watermarkOf(write, null)).isNull();
    }

    @Test
    void invalidWrites_areRefused() {
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of("posts", 1L),
                Map.of("posts", AttributeValue.fromN("1")), Set.of(), SHARD, FIRST, LAST, null))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of("pk", 1L),
                Map.of(), Set.of(), SHARD, FIRST, LAST, null))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(WM), SHARD, FIRST, LAST, null))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of("posts", 0L),
                Map.of(), Set.of(), SHARD, FIRST, LAST, null))
                .hasMessageContaining("zero");
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(), SHARD, LAST, FIRST, null))
                .hasMessageContaining("first sequence after last");
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.userStats("u1"), Domains.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(), SHARD, "1200", LAST, null))
                .hasMessageContaining("zero-padded");
        assertThatThrownBy(() -> new DerivedWrite(BlogKeys.user("u1"), Blog.USER, Map.of(),
                Map.of(), Set.of(), SHARD, FIRST, LAST, null))
                .hasMessageContaining("derived");
    }
}
