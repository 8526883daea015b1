package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.domains.Domains;
import io.tally.testkit.LocalDynamoDb;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/** The in-memory store must behave as the DynamoDB one does, since the engine's unit tests rely on it. */
class DerivedStoresIT {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";
    private static final String WM = Watermarks.attributeName(SHARD);
    private static final String S10 = SourceRecord.pad("10");
    private static final String S20 = SourceRecord.pad("20");
    private static final String S30 = SourceRecord.pad("30");
    private static final String S40 = SourceRecord.pad("40");

    /** A store, and how to read an item back from it. */
    record Subject(String name, DerivedStore store, Function<Key, Map<String, AttributeValue>> read,
                   Consumer<Map<String, AttributeValue>> put) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> stores() {
        InMemoryDerivedStore memory = new InMemoryDerivedStore();
        DynamoDbClient client = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("derived-stores");
        return Stream.of(
                Arguments.of(new Subject("in-memory", memory, key -> memory.item(key).orElse(null), memory::put)),
                Arguments.of(new Subject("DynamoDB Local", new DynamoDbDerivedStore(client, table),
                        key -> {
                            Map<String, AttributeValue> item = client.getItem(GetItemRequest.builder().tableName(table)
                                    .key(key.toAttributeMap()).consistentRead(true).build()).item();
                            return item.isEmpty() ? null : item;
                        },
                        item -> client.putItem(PutItemRequest.builder().tableName(table).item(item).build()))));
    }

    private static DerivedWrite write(String userId, Map<String, Long> counters, String first, String last,
                                      String expected) {
        return new DerivedWrite(BlogKeys.userStats(userId), Domains.USER_STATS.entityType(), counters, Map.of(), Set.of(), SHARD,
                first, last, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void firstWrite_noItem_createsItWithTypeCountersAndWatermark(Subject subject) {
        DerivedStore.Outcome outcome = subject.store().apply(write("a", Map.of("posts", 2L), S10, S20, null));

        assertThat(outcome).isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(BlogKeys.userStats("a"))).isEqualTo(Map.of(
                "pk", AttributeValue.fromS("USER#a"), "sk", AttributeValue.fromS("#STATS#"),
                "entityType", AttributeValue.fromS("UserStats"),
                "posts", AttributeValue.fromN("2"),
                WM, AttributeValue.fromS(S20)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void sameWriteAgain_isRefusedWithTheCurrentWatermark(Subject subject) {
        subject.store().apply(write("b", Map.of("posts", 2L), S10, S20, null));

        DerivedStore.Outcome again = subject.store().apply(write("b", Map.of("posts", 2L), S10, S20, null));

        assertThat(again).isEqualTo(new DerivedStore.WatermarkAhead(S20));
        assertThat(subject.read().apply(BlogKeys.userStats("b"))).containsEntry("posts", AttributeValue.fromN("2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void writeStartingAfterTheWatermark_isApplied_andOneOverlappingIt_isRefused(Subject subject) {
        subject.store().apply(write("c", Map.of("posts", 1L), S10, S20, null));

        assertThat(subject.store().apply(write("c", Map.of("posts", 1L), S20, S30, null)))
                .isEqualTo(new DerivedStore.WatermarkAhead(S20));
        assertThat(subject.store().apply(write("c", Map.of("posts", 1L), S30, S30, null)))
                .isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(BlogKeys.userStats("c"))).containsEntry("posts", AttributeValue.fromN("2"))
                .containsEntry(WM, AttributeValue.fromS(S30));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void knownWatermark_appliedOnlyWhileItHolds(Subject subject) {
        subject.store().apply(write("d", Map.of("posts", 1L), S10, S20, null));

        assertThat(subject.store().apply(write("d", Map.of("posts", -1L), S30, S30, S10)))
                .isEqualTo(new DerivedStore.WatermarkAhead(S20));
        assertThat(subject.store().apply(write("d", Map.of("posts", -1L), S30, S40, S20)))
                .isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(BlogKeys.userStats("d"))).containsEntry("posts", AttributeValue.fromN("0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void knownWatermark_onMissingItem_isRefusedWithNone(Subject subject) {
        assertThat(subject.store().apply(write("e", Map.of("posts", 1L), S30, S30, S20)))
                .isEqualTo(new DerivedStore.WatermarkAhead(null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void document_setAndRemove_keepsCountersAndTheExistingType(Subject subject) {
        Key key = BlogKeys.postProjection("p1");
        subject.store().apply(new DerivedWrite(key, Blog.POST_PROJECTION.entityType(), Map.of("comments", 3L),
                Map.of("title", AttributeValue.fromS("One"), "status", AttributeValue.fromS("created")), Set.of(),
                SHARD, S10, S10, null));

        subject.store().apply(new DerivedWrite(key, Blog.POST_PROJECTION.entityType(), Map.of(),
                Map.of("status", AttributeValue.fromS("deleted")), Set.of("title"), SHARD, S20, S20, null));

        assertThat(subject.read().apply(key)).isEqualTo(Map.of(
                "pk", AttributeValue.fromS("POSTREF#p1"), "sk", AttributeValue.fromS("#PROJECTION#"),
                "entityType", AttributeValue.fromS("PostProjection"),
                "comments", AttributeValue.fromN("3"),
                "status", AttributeValue.fromS("deleted"),
                WM, AttributeValue.fromS(S20)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void watermarksOfOtherShards_areIndependent(Subject subject) {
        subject.store().apply(write("f", Map.of("posts", 1L), S30, S40, null));
        DerivedWrite otherShard = new DerivedWrite(BlogKeys.userStats("f"), Domains.USER_STATS.entityType(), Map.of("posts", 1L),
                Map.of(), Set.of(), "shardId-other", S10, S10, null);

        assertThat(subject.store().apply(otherShard)).isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(BlogKeys.userStats("f"))).containsEntry("posts", AttributeValue.fromN("2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void addToANonNumber_fails(Subject subject) {
        subject.put().accept(Map.of("pk", AttributeValue.fromS("USER#g"), "sk", AttributeValue.fromS("#STATS#"),
                "posts", AttributeValue.fromS("x")));

        assertThatThrownBy(() -> subject.store().apply(write("g", Map.of("posts", 1L), S10, S10, null)))
                .isInstanceOf(RuntimeException.class);
        assertThat(subject.read().apply(BlogKeys.userStats("g"))).doesNotContainKey(WM);
    }
}
