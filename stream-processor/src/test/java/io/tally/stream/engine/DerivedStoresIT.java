package io.tally.stream.engine;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchRuntimeException;

import io.tally.core.Key;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.domains.favs.FavFigures;
import io.tally.testkit.LocalDynamoDb;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
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

    /** Counters of a user's stats; {@code expected} null: watermark not known (a first attempt). */
    private static DerivedWrite write(String userId, Map<String, Long> counters, String first, String last,
                                      String expected) {
        return new DerivedWrite(Users.statsKey(userId), Users.USER_STATS.entityType(), counters, Map.of(), Set.of(),
                null, SHARD, first, last, expected != null, expected);
    }

    /** A selector entry's document (its title) at a revision, from a shard, first attempt. */
    private static DerivedWrite entry(String itemId, String title, long revision, String shard, String sequence) {
        return new DerivedWrite(CatalogueKeys.selectorEntry(itemId), Catalogue.SELECTOR_ENTRY.entityType(), Map.of(),
                Map.of("itemId", AttributeValue.fromS(itemId), "title", AttributeValue.fromS(title)), Set.of(), revision,
                shard, sequence, sequence, false, null);
    }

    /** The removal of a selector entry's document at a revision, from a shard, first attempt. */
    private static DerivedWrite entryRemoved(String itemId, long revision, String shard, String sequence) {
        return new DerivedWrite(CatalogueKeys.selectorEntry(itemId), Catalogue.SELECTOR_ENTRY.entityType(), Map.of(),
                Map.of(), Catalogue.SELECTOR_ENTRY.documentFields(), revision, shard, sequence, sequence, false, null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void firstWrite_noItem_createsItWithTypeCountersAndWatermark(Subject subject) {
        DerivedStore.Outcome outcome = subject.store().apply(write("a", Map.of("posts", 2L), S10, S20, null));

        assertThat(outcome).isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(Users.statsKey("a"))).isEqualTo(Map.of(
                "pk", AttributeValue.fromS("USER#a"), "sk", AttributeValue.fromS("#STATS#"),
                "entityType", AttributeValue.fromS("UserStats"),
                "posts", AttributeValue.fromN("2"),
                WM, AttributeValue.fromS(S20),
                // The item's first write.
                "wv", AttributeValue.fromN("1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void sameWriteAgain_isRefusedWithTheCurrentWatermark(Subject subject) {
        subject.store().apply(write("b", Map.of("posts", 2L), S10, S20, null));

        DerivedStore.Outcome again = subject.store().apply(write("b", Map.of("posts", 2L), S10, S20, null));

        assertThat(again).isEqualTo(new DerivedStore.Refused(S20, null));
        assertThat(subject.read().apply(Users.statsKey("b"))).containsEntry("posts", AttributeValue.fromN("2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void writeStartingAfterTheWatermark_isApplied_andOneOverlappingIt_isRefused(Subject subject) {
        subject.store().apply(write("c", Map.of("posts", 1L), S10, S20, null));

        assertThat(subject.store().apply(write("c", Map.of("posts", 1L), S20, S30, null)))
                .isEqualTo(new DerivedStore.Refused(S20, null));
        assertThat(subject.store().apply(write("c", Map.of("posts", 1L), S30, S30, null)))
                .isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(Users.statsKey("c"))).containsEntry("posts", AttributeValue.fromN("2"))
                .containsEntry(WM, AttributeValue.fromS(S30));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void knownWatermark_appliedOnlyWhileItHolds(Subject subject) {
        subject.store().apply(write("d", Map.of("posts", 1L), S10, S20, null));

        assertThat(subject.store().apply(write("d", Map.of("posts", -1L), S30, S30, S10)))
                .isEqualTo(new DerivedStore.Refused(S20, null));
        assertThat(subject.store().apply(write("d", Map.of("posts", -1L), S30, S40, S20)))
                .isInstanceOf(DerivedStore.Applied.class);
        // Back at zero, a declared counter stays, at zero (which reads as none), in both stores: no second write.
        assertThat(subject.read().apply(Users.statsKey("d"))).containsEntry("posts", AttributeValue.fromN("0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void counterOfAFamily_backAtZero_isRemoved_andADeclaredOneStays(Subject subject) {
        Key key = new Key("FAVS#f", "#STATS#");
        subject.store().apply(new DerivedWrite(key, FavFigures.STATS.type().entityType(),
                Map.of("favourites", 1L, "tag:t1", 1L, "tag:t2", 1L), Map.of(), Set.of(), null, SHARD, S10, S10, false,
                null, Set.of("tag:t1", "tag:t2")));

        subject.store().apply(new DerivedWrite(key, FavFigures.STATS.type().entityType(),
                Map.of("favourites", -1L, "tag:t1", -1L, "tag:t2", 1L), Map.of(), Set.of(), null, SHARD, S20, S20,
                false, null, Set.of("tag:t1", "tag:t2")));

        assertThat(subject.read().apply(key)).doesNotContainKey("tag:t1")
                .containsEntry("tag:t2", AttributeValue.fromN("2"))
                .containsEntry("favourites", AttributeValue.fromN("0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void knownWatermark_onMissingItem_isRefusedWithNone(Subject subject) {
        assertThat(subject.store().apply(write("e", Map.of("posts", 1L), S30, S30, S20)))
                .isEqualTo(new DerivedStore.Refused(null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void document_setAndRemove_keepsCountersAndTheExistingType(Subject subject) {
        Key key = BlogKeys.postProjection("p1");
        subject.store().apply(new DerivedWrite(key, Blog.POST_PROJECTION.entityType(), Map.of("comments", 3L),
                Map.of("title", AttributeValue.fromS("One"), "status", AttributeValue.fromS("created")), Set.of(),
                2L, SHARD, S10, S10, false, null));

        subject.store().apply(new DerivedWrite(key, Blog.POST_PROJECTION.entityType(), Map.of(),
                Map.of("status", AttributeValue.fromS("deleted")), Set.of("title"), 4L, SHARD, S20, S20, false, null));

        assertThat(subject.read().apply(key)).isEqualTo(Map.of(
                "pk", AttributeValue.fromS("POSTREF#p1"), "sk", AttributeValue.fromS("#PROJECTION#"),
                "entityType", AttributeValue.fromS("PostProjection"),
                "comments", AttributeValue.fromN("3"),
                "status", AttributeValue.fromS("deleted"),
                "srcRev", AttributeValue.fromN("4"),
                WM, AttributeValue.fromS(S20),
                // Two writes.
                "wv", AttributeValue.fromN("2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void watermarksOfOtherShards_areIndependent(Subject subject) {
        subject.store().apply(write("f", Map.of("posts", 1L), S30, S40, null));
        DerivedWrite otherShard = new DerivedWrite(Users.statsKey("f"), Users.USER_STATS.entityType(), Map.of("posts", 1L),
                Map.of(), Set.of(), null, "shardId-other", S10, S10, false, null);

        assertThat(subject.store().apply(otherShard)).isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(Users.statsKey("f"))).containsEntry("posts", AttributeValue.fromN("2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void knownAbsentWatermark_appliedOnlyWhileTheItemHasNone(Subject subject) {
        DerivedWrite expectingNone = new DerivedWrite(Users.statsKey("h"), Users.USER_STATS.entityType(),
                Map.of("posts", 1L), Map.of(), Set.of(), null, SHARD, S30, S30, true, null);
        assertThat(subject.store().apply(expectingNone)).isInstanceOf(DerivedStore.Applied.class);

        // Now the item has the watermark S30: the same expectation no longer holds (a first attempt's would not
        // either, S30 not being below S30).
        assertThat(subject.store().apply(expectingNone)).isEqualTo(new DerivedStore.Refused(S30, null));
        assertThat(subject.read().apply(Users.statsKey("h"))).containsEntry("posts", AttributeValue.fromN("1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void olderDocumentFromAnotherShard_isRefusedWithTheItemsRevision_andChangesNothing(Subject subject) {
        subject.store().apply(entry("i1", "Newer", 9, "shardId-child", S20));

        DerivedStore.Outcome older = subject.store().apply(entry("i1", "Older", 8, "shardId-parent", S10));

        assertThat(older).isEqualTo(new DerivedStore.Refused(null, 9L));
        assertThat(subject.read().apply(CatalogueKeys.selectorEntry("i1")))
                .containsEntry("title", AttributeValue.fromS("Newer"))
                .containsEntry("srcRev", AttributeValue.fromN("9"))
                .doesNotContainKey(Watermarks.attributeName("shardId-parent"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void sameOrNewerDocument_fromAnyShard_isApplied(Subject subject) {
        subject.store().apply(entry("i2", "First", 4, "shardId-a", S20));

        assertThat(subject.store().apply(entry("i2", "Same state again", 4, "shardId-b", S10)))
                .isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.store().apply(entry("i2", "Newer", 6, "shardId-c", S10)))
                .isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(CatalogueKeys.selectorEntry("i2")))
                .containsEntry("title", AttributeValue.fromS("Newer"))
                .containsEntry("srcRev", AttributeValue.fromN("6"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void removal_beatsTheStateItRemoves_andARecreationBeatsTheRemoval(Subject subject) {
        Key key = CatalogueKeys.selectorEntry("i3");
        // The child shard's REMOVE of revision 5 (2*5+1) lands before the parent's last state of revision 5 (2*5).
        assertThat(subject.store().apply(entryRemoved("i3", 11, "shardId-child", S20)))
                .isInstanceOf(DerivedStore.Applied.class);

        assertThat(subject.store().apply(entry("i3", "Resurrected", 10, "shardId-parent", S10)))
                .isEqualTo(new DerivedStore.Refused(null, 11L));
        assertThat(subject.read().apply(key)).doesNotContainKeys("title", "itemId")
                .containsEntry("srcRev", AttributeValue.fromN("11"));

        assertThat(subject.store().apply(entry("i3", "Recreated", 12, "shardId-child", S30)))
                .isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(key)).containsEntry("title", AttributeValue.fromS("Recreated"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void bothConditions_watermarkAheadAndNewerDocument_refusalReportsBoth(Subject subject) {
        subject.store().apply(entry("i4", "Newer", 9, SHARD, S20));

        assertThat(subject.store().apply(entry("i4", "Older", 8, SHARD, S10)))
                .isEqualTo(new DerivedStore.Refused(S20, 9L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void countersOnly_ignoreTheDocumentRevision(Subject subject) {
        Key key = BlogKeys.postProjection("p9");
        subject.store().apply(new DerivedWrite(key, Blog.POST_PROJECTION.entityType(), Map.of(),
                Map.of("title", AttributeValue.fromS("T")), Set.of(), 100L, "shardId-post", S30, S30, false, null));

        assertThat(subject.store().apply(new DerivedWrite(key, Blog.POST_PROJECTION.entityType(), Map.of("comments", 2L),
                Map.of(), Set.of(), null, SHARD, S10, S10, false, null))).isInstanceOf(DerivedStore.Applied.class);
        assertThat(subject.read().apply(key)).containsEntry("comments", AttributeValue.fromN("2"))
                .containsEntry("srcRev", AttributeValue.fromN("100"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void addToANonNumber_fails(Subject subject) {
        subject.put().accept(Map.of("pk", AttributeValue.fromS("USER#g"), "sk", AttributeValue.fromS("#STATS#"),
                "posts", AttributeValue.fromS("x")));

        assertThatThrownBy(() -> subject.store().apply(write("g", Map.of("posts", 1L), S10, S10, null)))
                .isInstanceOf(RuntimeException.class);
        assertThat(subject.read().apply(Users.statsKey("g"))).doesNotContainKey(WM);
    }

    @Test
    void writeDynamoDbRefusesForGood_isPermanent_throttlingIsNot() {
        DynamoDbDerivedStore store = new DynamoDbDerivedStore(LocalDynamoDb.client(),
                LocalDynamoDb.createTable("derived-refused"));
        DerivedWrite oversized = entry("i1", "x".repeat(410 * 1024), 1, SHARD, S10);

        RuntimeException refused = catchRuntimeException(() -> store.apply(oversized));

        assertThat(refused).isNotNull();
        assertThat(new KeyWriter.Outcome(oversized.key(), 1, refused, List.of(S10)).permanent()).isTrue();
        RuntimeException throttled = ProvisionedThroughputExceededException.builder().message("slow down").build();
        assertThat(new KeyWriter.Outcome(oversized.key(), 1, throttled, List.of(S10)).permanent()).isFalse();
    }

    @Test
    void dynamoDbStore_saysTheWriteUnitsOfTheTable_theItemsSizeInKbRoundedUp() {
        DynamoDbDerivedStore store = new DynamoDbDerivedStore(LocalDynamoDb.client(),
                LocalDynamoDb.createTable("derived-write-units"));

        DerivedStore.Outcome small = store.apply(entry("i1", "Small", 1, SHARD, S10));
        DerivedStore.Outcome large = store.apply(entry("i2", "x".repeat(150 * 1024), 1, SHARD, S10));

        assertThat(small).isEqualTo(new DerivedStore.Applied(1));
        // 150 KB of title, the keys and the other attributes: 151 KB, rounded up.
        assertThat(large).isEqualTo(new DerivedStore.Applied(151));
    }
}
