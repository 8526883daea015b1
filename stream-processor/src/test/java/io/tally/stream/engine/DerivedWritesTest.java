package io.tally.stream.engine;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueKeys;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class DerivedWritesTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";
    private static final String WM = Watermarks.attributeName(SHARD);
    private static final String FIRST = SourceRecord.pad("1200");
    private static final String LAST = SourceRecord.pad("1350");
    private static final Key STATS = Users.statsKey("u1");

    /** Counters only, first attempt (watermark not known). */
    private static DerivedWrite counters(Map<String, Long> adds) {
        return new DerivedWrite(STATS, Users.USER_STATS.entityType(), adds, Map.of(), Set.of(), null, SHARD, FIRST,
                LAST, false, null);
    }

    @Test
    void firstAttempt_countersAndDocument_oneUpdateConditionedOnWatermarkBelowFirstAndNoNewerDocument() {
        DerivedWrite write = new DerivedWrite(BlogKeys.postProjection("p1"), Blog.POST_PROJECTION.entityType(),
                Map.of("comments", 3L),
                Map.of("title", AttributeValue.fromS("Hello"), "status", AttributeValue.fromS("updated")),
                Set.of("updatedAt"), 6L, SHARD, FIRST, LAST, false, null);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request).isEqualTo(UpdateItemRequest.builder()
                .tableName("tally")
                .key(Map.of("pk", AttributeValue.fromS("POSTREF#p1"), "sk", AttributeValue.fromS("#PROJECTION#")))
                .updateExpression("SET #type = if_not_exists(#type, :type), #wm = :last, #rev = :rev, #s0 = :s0,"
                        + " #s1 = :s1 ADD #wv :one, #c0 :c0 REMOVE #r0")
                .conditionExpression("(attribute_not_exists(#wm) OR #wm < :first)"
                        + " AND (attribute_not_exists(#rev) OR #rev <= :rev)")
                .expressionAttributeNames(Map.of(
                        "#type", "entityType", "#wm", WM, "#rev", "srcRev",
                        "#s0", "status", "#s1", "title", "#wv", "wv", "#c0", "comments", "#r0", "updatedAt"))
                .expressionAttributeValues(Map.of(
                        ":type", AttributeValue.fromS("PostProjection"),
                        ":last", AttributeValue.fromS(LAST),
                        ":first", AttributeValue.fromS(FIRST),
                        ":rev", AttributeValue.fromN("6"),
                        ":s0", AttributeValue.fromS("updated"),
                        ":s1", AttributeValue.fromS("Hello"),
                        ":one", AttributeValue.fromN("1"),
                        ":c0", AttributeValue.fromN("3")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                // A declared counter stays at zero: no new values to ask for.
                .returnValues(ReturnValue.NONE)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .build());
    }

    @Test
    void countersOfAFamily_askForTheirNewValues_toRemoveThoseAtZero() {
        DerivedWrite write = new DerivedWrite(STATS, Users.USER_STATS.entityType(),
                Map.of("posts", 1L, "tag:t1", -1L), Map.of(), Set.of(), null, SHARD, FIRST, LAST, false, null,
                Set.of("tag:t1"));

        assertThat(DerivedWrites.toUpdateItem("tally", write).returnValues()).isEqualTo(ReturnValue.UPDATED_NEW);
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of("posts", 1L), Map.of(),
                Set.of(), null, SHARD, FIRST, LAST, false, null, Set.of("tag:t1")))
                .hasMessageContaining("removable counters the write does not add to");
    }

    @Test
    void retry_knownWatermark_conditionIsEquality() {
        String known = SourceRecord.pad("1250");
        DerivedWrite write = new DerivedWrite(STATS, Users.USER_STATS.entityType(),
                Map.of("posts", -1L, "comments", 2L), Map.of(), Set.of(), null, SHARD, SourceRecord.pad("1300"), LAST,
                true, known);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request.updateExpression())
                .isEqualTo("SET #type = if_not_exists(#type, :type), #wm = :last ADD #wv :one, #c0 :c0, #c1 :c1");
        assertThat(request.conditionExpression()).isEqualTo("#wm = :expected");
        assertThat(request.expressionAttributeNames()).containsEntry("#c0", "comments").containsEntry("#c1", "posts")
                .doesNotContainKey("#rev");
        assertThat(request.expressionAttributeValues())
                .containsEntry(":expected", AttributeValue.fromS(known))
                .containsEntry(":c0", AttributeValue.fromN("2"))
                .containsEntry(":c1", AttributeValue.fromN("-1"))
                .doesNotContainKey(":first");
    }

    @Test
    void retry_watermarkKnownToBeAbsent_conditionIsItsAbsence() {
        DerivedWrite write = new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of("posts", 1L), Map.of(),
                Set.of(), null, SHARD, FIRST, LAST, true, null);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request.conditionExpression()).isEqualTo("attribute_not_exists(#wm)");
        assertThat(request.expressionAttributeValues()).doesNotContainKeys(":first", ":expected");
    }

    @Test
    void retry_knownWatermark_withDocument_stillRequiresNoNewerDocument() {
        String known = SourceRecord.pad("1250");
        DerivedWrite write = new DerivedWrite(CatalogueKeys.selectorEntry("i1"), Catalogue.SELECTOR_ENTRY.entityType(),
                Map.of(), Map.of("title", AttributeValue.fromS("T")), Set.of(), 41L, SHARD, SourceRecord.pad("1300"),
                LAST, true, known);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request.conditionExpression())
                .isEqualTo("(#wm = :expected) AND (attribute_not_exists(#rev) OR #rev <= :rev)");
        assertThat(request.updateExpression()).contains("#rev = :rev");
        assertThat(request.expressionAttributeValues()).containsEntry(":rev", AttributeValue.fromN("41"));
    }

    @Test
    void documentRemoval_only_removesEveryOwnedAttributeAndRecordsTheRemovalsRevision() {
        DerivedWrite write = new DerivedWrite(CatalogueKeys.selectorEntry("i1"), Catalogue.SELECTOR_ENTRY.entityType(), Map.of(), Map.of(),
                Set.of("selector", "data", "title"), 7L, SHARD, FIRST, FIRST, false, null);

        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", write);

        assertThat(request.updateExpression())
                .isEqualTo("SET #type = if_not_exists(#type, :type), #wm = :last, #rev = :rev ADD #wv :one REMOVE #r0, #r1, #r2");
        assertThat(request.expressionAttributeNames())
                .containsEntry("#r0", "data").containsEntry("#r1", "selector").containsEntry("#r2", "title");
        assertThat(request.expressionAttributeValues()).containsEntry(":rev", AttributeValue.fromN("7"));
    }

    @Test
    void watermarkOnly_whenContributionsCancelOut_stillMovesTheWatermark() {
        UpdateItemRequest request = DerivedWrites.toUpdateItem("tally", counters(Map.of()));

        assertThat(request.updateExpression()).isEqualTo("SET #type = if_not_exists(#type, :type), #wm = :last ADD #wv :one");
        assertThat(request.conditionExpression()).isEqualTo("attribute_not_exists(#wm) OR #wm < :first");
    }

    @Test
    void watermarkOfAndRevisionOf_conditionFailureItem_readTheBookkeeping() {
        DerivedWrite write = counters(Map.of("posts", 1L));

        assertThat(DerivedWrites.watermarkOf(write, Map.of(WM, AttributeValue.fromS(LAST),
                Watermarks.attributeName("other"), AttributeValue.fromS(FIRST)))).isEqualTo(LAST);
        assertThat(DerivedWrites.watermarkOf(write, Map.of("posts", AttributeValue.fromN("1")))).isNull();
        assertThat(DerivedWrites.watermarkOf(write, null)).isNull();
        assertThat(DerivedWrites.revisionOf(Map.of("srcRev", AttributeValue.fromN("3141592653589793")))).isEqualTo(3141592653589793L);
        assertThat(DerivedWrites.revisionOf(Map.of("posts", AttributeValue.fromN("1")))).isNull();
        assertThat(DerivedWrites.revisionOf(null)).isNull();
    }

    @Test
    void invalidWrites_areRefused() {
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of("posts", 1L),
                Map.of("posts", AttributeValue.fromN("1")), Set.of(), 1L, SHARD, FIRST, LAST, false, null))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> counters(Map.of("pk", 1L))).hasMessageContaining("reserved");
        assertThatThrownBy(() -> counters(Map.of("srcRev", 1L))).hasMessageContaining("reserved");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(WM), 1L, SHARD, FIRST, LAST, false, null))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> counters(Map.of("posts", 0L))).hasMessageContaining("zero");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(), null, SHARD, LAST, FIRST, false, null))
                .hasMessageContaining("first sequence after last");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(), null, SHARD, "1200", LAST, false, null))
                .hasMessageContaining("zero-padded");
        assertThatThrownBy(() -> new DerivedWrite(Users.key("u1"), Users.USER, Map.of(),
                Map.of(), Set.of(), null, SHARD, FIRST, LAST, false, null))
                .hasMessageContaining("derived");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of(),
                Map.of(), Set.of(), null, SHARD, FIRST, LAST, false, FIRST))
                .hasMessageContaining("known");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of(),
                Map.of("userId", AttributeValue.fromS("u1")), Set.of(), null, SHARD, FIRST, LAST, false, null))
                .as("a document without its revision").hasMessageContaining("revision");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of("posts", 1L),
                Map.of(), Set.of(), 4L, SHARD, FIRST, LAST, false, null))
                .as("a revision without a document").hasMessageContaining("revision");
        assertThatThrownBy(() -> new DerivedWrite(STATS, Users.USER_STATS.entityType(), Map.of(),
                Map.of("userId", AttributeValue.fromS("u1")), Set.of(), -2L, SHARD, FIRST, LAST, false, null))
                .hasMessageContaining("revision");
    }

    @Test
    void zeroCounters_areTheWritesRemovableCountersTheItemHoldsAtZero() {
        DerivedWrite write = new DerivedWrite(STATS, Users.USER_STATS.entityType(),
                Map.of("posts", -1L, "tag:a", -1L, "tag:b", 2L, "tag:c", -3L), Map.of(), Set.of(), null, SHARD, FIRST,
                LAST, false, null, Set.of("tag:a", "tag:b", "tag:c"));
        Map<String, AttributeValue> updated = Map.of("posts", AttributeValue.fromN("0"),
                "tag:a", AttributeValue.fromN("0"), "tag:b", AttributeValue.fromN("2"),
                "tag:c", AttributeValue.fromN("0.0"), "title", AttributeValue.fromS("0"));

        // The declared counter at zero stays.
        assertThat(DerivedWrites.zeroCounters(write, updated)).containsExactly("tag:a", "tag:c");
        assertThat(DerivedWrites.zeroCounters(write, null)).isEmpty();
        assertThat(DerivedWrites.zeroCounters(counters(Map.of("posts", -1L)), updated)).isEmpty();
    }

    @Test
    void zeroRemovals_removeEachCounterWhileItIsZero_atMostAHundredPerRequest() {
        List<String> zeros = IntStream.range(0, 250).mapToObj(i -> "tag:t" + i).toList();

        List<UpdateItemRequest> requests = DerivedWrites.zeroRemovals("tally", STATS, zeros);

        assertThat(requests).extracting(r -> r.expressionAttributeNames().size()).containsExactly(100, 100, 50);
        UpdateItemRequest last = requests.get(2);
        assertThat(last.updateExpression()).startsWith("REMOVE #z0, #z1, ").endsWith(", #z49");
        assertThat(last.conditionExpression()).startsWith("#z0 = :zero AND #z1 = :zero AND ").endsWith("#z49 = :zero");
        assertThat(last.expressionAttributeNames()).containsEntry("#z0", "tag:t200").containsEntry("#z49", "tag:t249");
        assertThat(last.expressionAttributeValues()).isEqualTo(Map.of(":zero", AttributeValue.fromN("0")));
        assertThat(requests).allSatisfy(r -> assertThat(r.key()).isEqualTo(STATS.toAttributeMap()));
        assertThat(DerivedWrites.zeroRemovals("tally", STATS, List.of())).isEmpty();
    }
}
