package io.tally.domains.favs;

import static io.tally.core.Items.s;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.Document;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A favourite owns the search entries of its title (its figures, per user and in the global totals, are views:
 * {@link FavFigures}): one per term ({@link SearchTerms#terms}), each a copy of the favourite's fields in the
 * partition of the FavouriteSearch index for that term. A change of the title removes the entries of terms it no
 * longer has (the difference of the two states' contributions); a removal removes them all, and also the favourite's
 * tag links in turn ({@link FavouriteLinks}). Announces {@code FavouriteCollected} and {@code FavouriteUncollected}.
 */
public final class FavouriteDerivation extends EntityDerivation<Favourite> {
    public static final EventType FAVOURITE_COLLECTED = EventType.of("FavouriteCollected", FavouriteDetail.class);
    public static final EventType FAVOURITE_UNCOLLECTED = EventType.of("FavouriteUncollected", FavouriteDetail.class);

    /** The detail of {@code FavouriteCollected} and {@code FavouriteUncollected}. */
    public record FavouriteDetail(String eventId, String userId, String favouriteId, FavouriteType type, String title,
                                  Instant clippedAt) {
    }

    public FavouriteDerivation() {
        super(Favs.FAVOURITE, Favourite::fromItem);
    }

    @Override
    protected Contribution contribution(Favourite favourite) {
        Contribution.Builder contribution = Contribution.builder();
        for (String term : SearchTerms.terms(favourite.title())) {
            contribution.document(Favs.SEARCH_ENTRY,
                    FavKeys.searchSubject(favourite.userId(), favourite.favouriteId(), term), entry(favourite, term));
        }
        return contribution.build();
    }

    /**
     * The clip time in epoch milliseconds: a favourite is never modified, and one collected again under a freed id is
     * clipped later (the writer's clock, as a catalogue item's revision), so its entries beat the removal of the
     * earlier one's at the same keys.
     */
    @Override
    protected long revision(Favourite favourite) {
        return favourite.clippedAt().toEpochMilli();
    }

    static Map<String, AttributeValue> entry(Favourite favourite, String term) {
        Map<String, AttributeValue> values = Favourite.FIELDS.fieldsOf(favourite);
        values.put(Favs.SEARCH_WORDS, s(SearchTerms.wordList(favourite.title())));
        values.put(FavKeys.SEARCH_KEY, s(FavKeys.searchPartition(favourite.userId(), term)));
        values.put(FavKeys.CLIPPED_KEY, s(favourite.clipped()));
        return values;
    }

    /** An un-collect removes the favourite's links; a favourite is never modified otherwise. */
    @Override
    protected List<Cascade> cascades(Favourite before, Favourite after) {
        if (before != null && (after == null || !after.incarnation().equals(before.incarnation()))) {
            return List.of(new FavouriteLinks(before.userId(), before.favouriteId(), before.incarnation()));
        }
        return List.of();
    }

    @Override
    protected List<DomainEvent> events(String eventId, Favourite before, Favourite after) {
        return createdOrRemoved(before, after, created -> event(eventId, FAVOURITE_COLLECTED, created),
                removed -> event(eventId, FAVOURITE_UNCOLLECTED, removed));
    }

    private static DomainEvent event(String eventId, EventType detailType, Favourite favourite) {
        return DomainEvent.about(eventId, detailType, favourite.userId() + "/" + favourite.favouriteId(),
                id -> new FavouriteDetail(id, favourite.userId(), favourite.favouriteId(), favourite.type(),
                        favourite.title(), favourite.clippedAt()));
    }

    /** For tests: the document of one search entry as the derivation writes it (revision aside). */
    static Document document(Favourite favourite, String term) {
        return new Document(Favs.SEARCH_ENTRY, entry(favourite, term), 0);
    }
}
