package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.RepairReport;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.StreamDrain;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Seed 004's cascades and search projection on DynamoDB Local's real stream with the real engine: an un-collected
 * favourite's and a deleted tag's links are removed, the per-tag counts follow, a redelivery removes nothing more, a
 * link of a later favourite reusing the id stays, and the search index holds exactly the live favourites' entries.
 */
class LinkCascadeIT {
    private static final Instant T = Instant.parse("2021-10-10T05:45:28.000Z");
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private static final Key STATS = FavKeys.favouriteStats("u1");

    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private String table;
    private StreamDrain stream;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("links-it");
        stream = StreamDrain.withEngine(dynamo, table, DERIVATIONS, publisher);
    }

    @AfterEach
    void tearDown() {
        stream.close();
    }

    @Test
    void uncollectedFavourite_linksRemoved_countsFollow_redeliveryRemovesNothing_searchForgetsIt() {
        Favourite pizza = favourite("f1", "Pizza in Naples", T, "fi1");
        Favourite beach = favourite("f2", "Beach", T.plusSeconds(1), "fi2");
        Tag trip = tag("trip", "ti1");
        Tag food = tag("food", "ti2");
        link(pizza, trip);
        link(pizza, food);
        link(beach, trip);
        stream.drain();
        assertThat(stream.counter(STATS, "tag:trip")).isEqualTo(2);
        assertThat(stream.counter(STATS, "favourites")).isEqualTo(2);
        assertThat(searchIndex("u1#nap")).containsExactly("f1");
        assertThat(searchIndex("u1#pizz")).containsExactly("f1");

        delete(pizza.key());
        List<SourceRecord> removal = stream.drain();

        assertThat(links()).extracting(l -> l.favouriteId() + "/" + l.tagId()).containsExactly("f2/trip");
        assertThat(stream.counter(STATS, "tag:trip")).isEqualTo(1);
        assertThat(stream.counter(STATS, "tag:food")).isZero();
        assertThat(stream.counter(STATS, "type:image")).isEqualTo(1);
        assertThat(searchIndex("u1#nap")).isEmpty();
        assertThat(searchIndex("u1#b")).containsExactly("f2");
        assertThat(publisher.published()).extracting(DomainEvent::detailType)
                .contains(FavEvents.FAVOURITE_UNCOLLECTED.detailType(), FavEvents.FAVOURITE_UNTAGGED.detailType());

        stream.process(removal);
        assertThat(stream.newRecords()).isEmpty();
        assertThat(CascadeRunner.overTable(dynamo, table).run(new FavouriteLinks("u1", "f1", "fi1"))).isZero();
        assertExact();
    }

    @Test
    void deletedTag_itsLinksOnEveryFavouriteRemoved_othersKept() {
        Favourite pizza = favourite("f1", "Pizza", T, "fi1");
        Favourite beach = favourite("f2", "Beach", T, "fi2");
        Tag trip = tag("trip", "ti1");
        Tag food = tag("food", "ti2");
        link(pizza, trip);
        link(beach, trip);
        link(pizza, food);

        delete(trip.key());
        delete(new TagName("u1", trip.name(), "trip").key());
        stream.drain();

        assertThat(links()).extracting(l -> l.favouriteId() + "/" + l.tagId()).containsExactly("f1/food");
        assertThat(stream.counter(STATS, "tag:trip")).isZero();
        assertThat(stream.counter(STATS, "tag:food")).isEqualTo(1);
        assertThat(publisher.published()).extracting(DomainEvent::detailType).contains(FavEvents.TAG_DELETED.detailType());
        assertExact();
    }

    @Test
    void favouriteUncollectedAndCollectedAgain_beforeTheCascade_theNewLinkAndEntriesStay() {
        Favourite first = favourite("f1", "Pizza", T, "fi1");
        Tag trip = tag("trip", "ti1");
        link(first, trip);
        delete(first.key());
        // The id is free again: collected anew, with another title, tagged again at the same link key.
        Favourite second = favourite("f1", "Pie", T.plusSeconds(60), "fi9");
        link(second, trip);

        stream.drain();

        assertThat(links()).singleElement().satisfies(l -> assertThat(l.favourite().incarnation()).isEqualTo("fi9"));
        assertThat(stream.counter(STATS, "tag:trip")).isEqualTo(1);
        assertThat(searchIndex("u1#pi")).containsExactly("f1");
        assertThat(searchIndex("u1#piz")).isEmpty();
        assertExact();
    }

    @Test
    void verify_comparesTheSearchEntriesAndTheStats() {
        favourite("f1", "Go", T, "fi1");
        stream.drain();
        assertExact();
        delete(Favs.SEARCH_ENTRY.key(FavKeys.searchSubject("u1", "f1", "go")));
        // The stats are shared: the stream wrote its shard's partial, so the base item is made here, with a wrong figure.
        dynamo.updateItem(r -> r.tableName(table).key(STATS.toAttributeMap())
                .updateExpression("SET #c = :c, entityType = :type").expressionAttributeNames(Map.of("#c", "type:video"))
                .expressionAttributeValues(Map.of(":c", AttributeValue.fromN("3"),
                        ":type", AttributeValue.fromS(FavFigures.STATS.type().name()))));

        VerificationReport report = new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2).verify();
        assertThat(report.differences()).extracting(d -> d.type().attributeValue() + " " + d.attribute())
                .containsExactly("FavouriteStats type:video");
        // A missing entry has no watermark: the rebuilder counts it behind the stream (not exact; a repair writes it).
        assertThat(report.behindItems()).isEqualTo(1);
        assertThat(report.isExact()).isFalse();
        new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2).repair(done -> { });
        assertThat(searchIndex("u1#go")).containsExactly("f1");
        assertExact();
    }

    @Test
    void favouriteAndTagRemovedWithNoStreamProcessor_verifyFindsTheCascadesUndone_repairRunsThemAndRecomputes() {
        Favourite pizza = favourite("f1", "Pizza", T, "fi1");
        Favourite beach = favourite("f2", "Beach", T.plusSeconds(1), "fi2");
        Favourite sea = favourite("f3", "Sea", T.plusSeconds(2), "fi3");
        Tag trip = tag("trip", "ti1");
        Tag food = tag("food", "ti2");
        link(pizza, trip);
        link(pizza, food);
        link(beach, trip);
        link(sea, food);
        stream.drain();
        delete(pizza.key());
        delete(trip.key());
        delete(new TagName("u1", trip.name(), "trip").key());
        // No stream processor sees the removals (it was down until the records expired, or they predate the stream).
        stream.skip();
        Rebuilder rebuilder = new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2);

        VerificationReport found = rebuilder.verify();

        assertThat(found.undoneCascades()).containsExactlyInAnyOrder(
                new FavouriteLinks("u1", "f1", "fi1").describe(), new TagLinks("u1", "trip", "ti1").describe());
        assertThat(found.isExact()).isFalse();
        assertThatThrownBy(() -> rebuilder.repair(count -> { })).hasMessageContaining("no cascade runner");
        assertThat(stream.counter(STATS, "tag:trip")).isEqualTo(2);

        RepairReport repair = rebuilder.withCascades(CascadeRunner.overTable(dynamo, table)).repair(count -> { });

        assertThat(repair.cascaded()).isEqualTo(3);
        assertThat(repair.isComplete()).isTrue();
        assertThat(links()).extracting(l -> l.favouriteId() + "/" + l.tagId()).containsExactly("f3/food");
        assertThat(stream.counter(STATS, "tag:trip")).isZero();
        assertThat(stream.counter(STATS, "tag:food")).isEqualTo(1);
        assertThat(stream.counter(STATS, "favourites")).isEqualTo(2);
        assertThat(searchIndex("u1#pizz")).isEmpty();
        // The removals' own records reach the stream processor later: the repaired items already reflect them.
        stream.drain();
        assertThat(stream.counter(STATS, "tag:food")).isEqualTo(1);
        assertExact();
    }

    private Favourite favourite(String id, String title, Instant at, String incarnation) {
        return favs().favourite(id, title, at, incarnation);
    }

    private Tag tag(String tagId, String incarnation) {
        return favs().tag(tagId, incarnation);
    }

    private void link(Favourite favourite, Tag tag) {
        favs().link(favourite, tag);
    }

    private void delete(Key key) {
        favs().delete(key);
    }

    private FavTable favs() {
        return new FavTable(dynamo, table, T);
    }

    private List<FavouriteTag> links() {
        return dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().stream()
                .filter(Favs.FAVOURITE_TAG::isTypeOf).map(FavouriteTag::fromItem).toList();
    }

    /** The favourite ids in one partition of the search index. */
    private List<String> searchIndex(String partition) {
        return dynamo.query(r -> r.tableName(table).indexName(FavKeys.FAVOURITE_SEARCH_INDEX)
                        .keyConditionExpression("#p = :p")
                        .expressionAttributeNames(Map.of("#p", FavKeys.SEARCH_KEY))
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition))))
                .items().stream().map(item -> item.get(Favourite.FAVOURITE_ID).s()).toList();
    }

    private void assertExact() {
        VerificationReport report = new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2).verify();
        assertThat(report.differences()).isEmpty();
        assertThat(report.behindItems()).isZero();
        assertThat(report.undoneCascades()).isEmpty();
    }
}
