package io.tally.domains.favs;

import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CascadeLinks;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.Document;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FavDerivationsTest {
    private static final Instant T = Instant.parse("2021-10-10T05:45:28.000Z");
    private static final long REVISION = 2 * T.toEpochMilli();
    private static final Favourite FAV = new Favourite("u1", "f1", FavouriteType.IMAGE, "Go!", null, null, null, T, "fi1");
    private static final Tag TAG = new Tag("u1", "t1", "Trip", T, T, "ti1");
    private static final FavouriteTag LINK = new FavouriteTag(FAV, "t1", T, "ti1");

    private static final CounterRef FAVOURITES = CounterRef.of(FavFigures.STATS.type(), "u1", "favourites");
    private static final CounterRef IMAGES = CounterRef.of(FavFigures.STATS.type(), "u1", "type:image");
    private static final CounterRef TAGGED = CounterRef.of(FavFigures.STATS.type(), "u1", "tag:t1");
    private static final CounterRef GLOBAL = SharedStats.global(Favs.GLOBAL_FAVOURITES);

    /**
     * The favourite's and the link's derivations as the registry joins them with the domain's view: the table's counts
     * are the view's, written by hand here.
     */
    private static final Derivations JOINED = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    private static Derivation joined(io.tally.core.EntityType type) {
        return JOINED.forType(type).orElseThrow();
    }

    private static Key entry(String term) {
        return Favs.SEARCH_ENTRY.key(FavKeys.searchSubject("u1", "f1", term));
    }

    static Stream<Arguments> cases() {
        Map<Key, Document> entries = Map.of(
                entry("g"), FavouriteDerivation.document(FAV, "g").withRevision(REVISION),
                entry("go"), FavouriteDerivation.document(FAV, "go").withRevision(REVISION));
        Map<Key, Document> removed = Map.of(
                entry("g"), Document.removed(Favs.SEARCH_ENTRY, REVISION + 1),
                entry("go"), Document.removed(Favs.SEARCH_ENTRY, REVISION + 1));
        Object[] favourite = {"userId", "u1", "favouriteId", "f1", "type", "image", "title", "Go!",
                "clippedAt", "2021-10-10T05:45:28.000Z"};
        Object[] tag = {"userId", "u1", "tagId", "t1", "name", "Trip", "createdAt", "2021-10-10T05:45:28.000Z"};
        Object[] link = {"userId", "u1", "favouriteId", "f1", "tagId", "t1", "type", "image",
                "linkedAt", "2021-10-10T05:45:28.000Z"};
        return Stream.of(
                row(joined(Favs.FAVOURITE), new DerivationCase(
                        "insert_favourite_countsUserTypeGlobalAndWritesASearchEntryPerTerm", null, FAV.toItem(),
                        deltas(FAVOURITES, 1, IMAGES, 1, GLOBAL, 1), entries,
                        List.of(event(FavEvents.FAVOURITE_COLLECTED.detailType(), "u1/f1", favourite))), List.of()),
                row(joined(Favs.FAVOURITE), new DerivationCase(
                        "remove_favourite_uncountsRemovesItsEntriesAndItsLinksInTurn", FAV.toItem(), null,
                        deltas(FAVOURITES, -1, IMAGES, -1, GLOBAL, -1), removed,
                        List.of(event(FavEvents.FAVOURITE_UNCOLLECTED.detailType(), "u1/f1", favourite))),
                        List.of(new FavouriteLinks("u1", "f1", "fi1"))),
                row(joined(Favs.TAG), new DerivationCase(
                        "insert_tag_countsNothingAnnouncesTagCreated", null, TAG.toItem(), Map.of(), Map.of(),
                        List.of(event(FavEvents.TAG_CREATED.detailType(), "u1/t1", tag))), List.of()),
                row(joined(Favs.TAG), new DerivationCase(
                        "modify_renamedTag_announcesTagRenamed", TAG.toItem(), TAG.renamed("Trips").toItem(),
                        Map.of(), Map.of(), List.of(event(FavEvents.TAG_RENAMED.detailType(), "u1/t1", "userId", "u1",
                        "tagId", "t1", "name", "Trips", "previousName", "Trip",
                        "createdAt", "2021-10-10T05:45:28.000Z"))), List.of()),
                row(joined(Favs.TAG), new DerivationCase(
                        "modify_accessedTag_announcesNothing", TAG.toItem(),
                        new Tag("u1", "t1", "Trip", T, T.plusSeconds(90), "ti1").toItem(), Map.of(), Map.of(),
                        List.of()), List.of()),
                row(joined(Favs.TAG), new DerivationCase(
                        "remove_tag_removesItsLinksInTurn", TAG.toItem(), null, Map.of(), Map.of(),
                        List.of(event(FavEvents.TAG_DELETED.detailType(), "u1/t1", tag))), List.of(new TagLinks("u1", "t1", "ti1"))),
                row(joined(Favs.FAVOURITE_TAG), new DerivationCase(
                        "insert_link_countsTheTag", null, LINK.toItem(), deltas(TAGGED, 1), Map.of(),
                        List.of(event(FavEvents.FAVOURITE_TAGGED.detailType(), "u1/f1/t1", link))), List.of()),
                row(joined(Favs.FAVOURITE_TAG), new DerivationCase(
                        "remove_link_uncountsTheTag", LINK.toItem(), null, deltas(TAGGED, -1), Map.of(),
                        List.of(event(FavEvents.FAVOURITE_UNTAGGED.detailType(), "u1/f1/t1", link))), List.of()));
    }

    private static Arguments row(Derivation derivation, DerivationCase change, List<?> cascades) {
        return Arguments.of(change, derivation, cascades);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasEventsAndCascades(DerivationCase change, Derivation derivation,
                                                                 List<?> cascades) {
        change.assertDerivedBy(derivation, cascades);
    }

    @Test
    void searchEntry_isInTheTermsIndexPartitionWithTheFavouritesFields() {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> values =
                FavouriteDerivation.document(FAV, "go").values();
        assertThat(values.get("searchKey").s()).isEqualTo("u1#go");
        assertThat(values.get("clippedKey").s()).isEqualTo("2021-10-10T05:45:28.000Z#f1");
        assertThat(values.get("words").s()).isEqualTo(" go ");
        assertThat(Favourite.fields(values, "")).isEqualTo(new Favourite("u1", "f1", FavouriteType.IMAGE, "Go!", null,
                null, null, T, ""));
    }

    @Test
    void aLinkTheDomainCannotRead_isAProblem_andItsViewCountsNothingEither() {
        // The view reads links as the domain's derivation does (FavouriteTag.SCHEMA's reader): one without its
        // linkedAt, or with a favourite type that is none, counts in no figure.
        for (Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> link : List.of(
                DerivationCase.with(LINK.toItem(), "linkedAt", null),
                DerivationCase.with(LINK.toItem(), "type", software.amazon.awssdk.services.dynamodb.model
                        .AttributeValue.fromS("hologram")))) {
            io.tally.core.derive.IntendedChanges changes = joined(Favs.FAVOURITE_TAG).derive("e1", null, link);
            assertThat(changes.problems()).isNotEmpty();
            assertThat(changes.counterDeltas()).isEmpty();
        }
    }

    @Test
    void unreadableImage_isAProblemAndRemovesNothingInTurn() {
        DerivationCase.assertUnreadable(new FavouriteDerivation(), TAG.toItem());
        DerivationCase.assertUnreadable(joined(Favs.FAVOURITE_TAG), FAV.toItem());
        DerivationCase.assertUnreadable(joined(Favs.TAG), DerivationCase.with(TAG.toItem(), Tag.INCARNATION, null));
    }

    @Test
    void cascadeLinks_aLinkIsRemovedByTheCascadesItsFavouriteAndTagAskFor_whenRemoved() {
        CascadeLinks favourite = joined(Favs.FAVOURITE).cascadeLinks(FAV.toItem());
        CascadeLinks tag = joined(Favs.TAG).cascadeLinks(TAG.toItem());
        CascadeLinks link = joined(Favs.FAVOURITE_TAG).cascadeLinks(LINK.toItem());

        assertThat(favourite.removes()).containsExactly(new FavouriteLinks("u1", "f1", "fi1"));
        assertThat(tag.removes()).containsExactly(new TagLinks("u1", "t1", "ti1"));
        assertThat(link.removes()).isEmpty();
        assertThat(link.removedBy()).containsExactly(new FavouriteLinks("u1", "f1", "fi1"),
                new TagLinks("u1", "t1", "ti1"));
    }
}
