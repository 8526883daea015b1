package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.view.ProjectionView;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The pure parts of a projection's list over an index's shards: the query of one shard (the index, the partition, last
 * first, one item more than the page, only what the index projects, after a position), positions from an entry and
 * from a {@code LastEvaluatedKey}, the positions a cursor may hold, the merge's order, and the counters read from the
 * table. {@code StatsRoutesIT} pages the seeds' two such lists on DynamoDB Local.
 */
class ShardedListTest {
    public record Card(String cardId, String title, long stars) {
    }

    public record Ranked(String cardId, String title, long likes) {
    }

    static final EntityType CARD = EntityType.base("ShardedListCard");
    static final ItemSchema<Card> SCHEMA = ItemSchema.of(Card.class, CARD, card -> new Key("CARD#" + card.cardId(),
            "#CARD#")).optional("title").build();

    /** By a text range key (a time, then the id), a counter beside the document. */
    static final DerivedType BY_TIME_TYPE = DerivedType.named("ShardedListByTime")
            .key("CARDCOPY#<cardId> / #COPY#", cardId -> new Key("CARDCOPY#" + cardId, "#COPY#"))
            .counters("likes")
            .document("cardId", "title", "shard", "postedAt")
            .indexKeys("shard", "postedAt")
            .build();
    static final TableIndex BY_TIME_INDEX = TableIndex.global("ByTime", "shard", "postedAt");
    static final ProjectionView<Card, Ranked> BY_TIME = ProjectionView.over(SCHEMA, Ranked.class)
            .type(BY_TIME_TYPE, Card::cardId)
            .project(card -> new Ranked(card.cardId(), card.title(), 0))
            .indexKey("shard", (card, shards) -> "S#0")
            .indexKey("postedAt", (card, shards) -> "2026-01-01T00:00:00.000Z#" + card.cardId())
            .revision(Card::stars)
            .build();
    static final ShardedList TIMES = ShardedList.of(BY_TIME, BY_TIME_INDEX);

    /** By a numeric range key, no counters. */
    public record Scored(String cardId, long stars) {
    }

    static final TableIndex BY_STARS_INDEX = TableIndex.global("ByStars", "selector", "data").numericRange();
    static final ProjectionView<Card, Scored> BY_STARS = ProjectionView.over(SCHEMA, Scored.class)
            .named("ShardedListByStars")
            .key("CARDSTARS#<cardId> / #STARS#", card -> new Key("CARDSTARS#" + card.cardId(), "#STARS#"))
            .project(card -> new Scored(card.cardId(), card.stars()))
            .indexKey("selector", (card, shards) -> "stars")
            .indexKey("data", (card, shards) -> card.stars())
            .revision(Card::stars)
            .build();
    static final ShardedList STARS = ShardedList.of(BY_STARS, BY_STARS_INDEX);

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    /** The attribute names a projection expression asks for, its placeholders resolved. */
    private static List<String> projected(QueryRequest request) {
        return Stream.of(request.projectionExpression().split(", "))
                .map(request.expressionAttributeNames()::get).toList();
    }

    @Test
    void firstPage_queriesTheShardLastFirst_withOneExtraItem_forWhatTheIndexProjectsButTheCounters() {
        QueryRequest request = TIMES.query("t", "S#3", 25, null);
        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.indexName()).isEqualTo("ByTime");
        assertThat(request.keyConditionExpression()).isEqualTo("#partition = :partition");
        assertThat(request.expressionAttributeNames()).containsEntry("#partition", "shard");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":partition", s("S#3")));
        assertThat(request.scanIndexForward()).isFalse();
        assertThat(request.limit()).isEqualTo(26);
        // A global secondary index cannot be read consistently.
        assertThat(request.consistentRead()).isNull();
        assertThat(request.hasExclusiveStartKey()).isFalse();
        assertThat(projected(request)).containsExactly("entityType", "cardId", "title", "pk", "sk", "postedAt");
    }

    @Test
    void afterAPosition_startsAfterThatEntryInThatShard_asTheEntryAndItsLastEvaluatedKeySay() {
        Map<String, AttributeValue> text = Map.of("pk", s("CARDCOPY#c7"), "sk", s("#COPY#"), "shard", s("S#1"),
                "postedAt", s("2026-11-22T10:00:00.123Z#c7"));
        Position position = TIMES.position(text);
        assertThat(position).isEqualTo(new Position("2026-11-22T10:00:00.123Z#c7", "CARDCOPY#c7\n#COPY#"));
        assertThat(TIMES.query("t", "S#1", 2, position).exclusiveStartKey()).isEqualTo(text);
        assertThat(TIMES.query("t", "S#1", 2, position).limit()).isEqualTo(3);

        Map<String, AttributeValue> number = Map.of("pk", s("CARDSTARS#c5"), "sk", s("#STARS#"), "selector",
                s("stars"), "data", n("70"));
        assertThat(STARS.position(number)).isEqualTo(new Position("70", "CARDSTARS#c5\n#STARS#"));
        assertThat(STARS.query("t", "stars", 10, STARS.position(number)).exclusiveStartKey()).isEqualTo(number);
        assertThat(projected(STARS.query("t", "stars", 10, null)))
                .containsExactly("entityType", "cardId", "stars", "pk", "sk", "data");
    }

    @Test
    void anEntryWithoutItsRangeKey_isMalformed() {
        assertThatThrownBy(() -> TIMES.position(Map.of("pk", s("CARDCOPY#c7"), "sk", s("#COPY#"))))
                .isInstanceOf(MalformedItemException.class).hasMessageContaining("postedAt");
        assertThatThrownBy(() -> STARS.position(Map.of("pk", s("CARDSTARS#c5"), "sk", s("#STARS#"), "data",
                s("70")))).isInstanceOf(MalformedItemException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "01", "1.50", "1e3", " 1", "1.", "abc"})
    void aNumericPosition_thatNoEntryGives_isInvalid(String sort) {
        assertThat(STARS.isValid(new Position(sort, "CARDSTARS#c5\n#STARS#"))).isFalse();
    }

    @Test
    void positions_areValidOnlyAsAnEntryGivesThem() {
        assertThat(STARS.isValid(new Position("0", "CARDSTARS#c5\n#STARS#"))).isTrue();
        assertThat(STARS.isValid(new Position("-12.5", "CARDSTARS#c5\n#STARS#"))).isTrue();
        assertThat(STARS.isValid(new Position("1000000000", "CARDSTARS#c5\n#STARS#"))).isTrue();
        assertThat(STARS.isValid(new Position("5", "CARDSTARS#c5"))).isFalse();
        assertThat(STARS.isValid(new Position("5", "CARDSTARS#c5\n"))).isFalse();
        assertThat(STARS.isValid(new Position("5", "a\nb\nc"))).isFalse();
        assertThat(TIMES.isValid(new Position("2026-01-01T00:00:00.000Z#c1", "CARDCOPY#c1\n#COPY#"))).isTrue();
        assertThat(TIMES.isValid(new Position("", "CARDCOPY#c1\n#COPY#"))).isFalse();
    }

    @Test
    void theMerge_takesTheHighestRangeKeyFirst_numbersByValue_tiesByTableKeyDescending() {
        // Of 9, 10 and 9 again in three shards: 10 first (not "9" > "10" as text), then the tie by key descending.
        List<Map<String, AttributeValue>> entries = List.of(
                Map.of("pk", s("CARDSTARS#a"), "sk", s("#STARS#"), "data", n("9")),
                Map.of("pk", s("CARDSTARS#a"), "sk", s("#STARS#"), "data", n("10")),
                Map.of("pk", s("CARDSTARS#b"), "sk", s("#STARS#"), "data", n("9")));
        var reads = entries.stream().map(entry -> new io.tally.core.read.ShardMerge.ShardRead<>(List.of(entry), null))
                .toList();
        assertThat(STARS.merged(io.tally.core.read.ShardMerge.start(3), reads, 3).items())
                .containsExactly(entries.get(1), entries.get(2), entries.get(0));
    }

    @Test
    void counters_readFromTheTable_areMergedByKey_anEntryTheReadMissedReadsZero() {
        Map<String, AttributeValue> c1 = Map.of("entityType", s("ShardedListByTime"), "pk", s("CARDCOPY#c1"), "sk",
                s("#COPY#"), "cardId", s("c1"));
        Map<String, AttributeValue> c2 = Map.of("entityType", s("ShardedListByTime"), "pk", s("CARDCOPY#c2"), "sk",
                s("#COPY#"), "cardId", s("c2"));
        var merged = TIMES.withCounters(List.of(c1, c2), List.of(Map.of("pk", s("CARDCOPY#c1"), "sk", s("#COPY#"),
                "likes", n("3"))));
        assertThat(merged.get(0)).containsEntry("likes", n("3")).containsEntry("cardId", s("c1"));
        assertThat(merged.get(1)).isEqualTo(c2);
        assertThat(BY_TIME.read(merged.get(0))).isEqualTo(new Ranked("c1", null, 3));
        assertThat(BY_TIME.read(merged.get(1))).isEqualTo(new Ranked("c2", null, 0));
    }

    @Test
    void itemsListedWhole_areQueriedWithoutAProjection_andRenderedAsTheirReaderSays() {
        ShardedList whole = ShardedList.of(BY_TIME_INDEX, item -> item.get("cardId").s());
        QueryRequest request = whole.query("t", "S#0", 10, null);
        assertThat(request.projectionExpression()).isNull();
        assertThat(request.expressionAttributeNames()).containsOnlyKeys("#partition");
        assertThat(request.limit()).isEqualTo(11);
        assertThat(whole.withCounters(List.of(Map.of("pk", s("CARD#c1"), "sk", s("#CARD#"))), List.of()))
                .containsExactly(Map.of("pk", s("CARD#c1"), "sk", s("#CARD#")));
    }

    @Test
    void anIndexWhoseKeysTheEntriesDoNotCarry_isRefused() {
        assertThatThrownBy(() -> ShardedList.of(BY_STARS, BY_TIME_INDEX)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not carry the keys of ByTime");
    }
}
