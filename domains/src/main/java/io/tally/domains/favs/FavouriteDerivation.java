package io.tally.domains.favs;

import static io.tally.core.Items.s;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.Document;
import io.tally.core.derive.EntityDerivation;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A favourite owns the search entries of its title (its figures, per user and in the global totals, are views:
 * {@link FavFigures}): one per term ({@link SearchTerms#terms}), each a copy of the favourite's fields in the
 * partition of the FavouriteSearch index for that term. A change of the title removes the entries of terms it no
 * longer has (the difference of the two states' contributions); a removal removes them all (and {@link Favs} declares
 * that it removes the favourite's tag links in turn, {@link FavouriteLinks}). Its events are announcements ({@link FavEvents}).
 */
public final class FavouriteDerivation extends EntityDerivation<Favourite> {
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

    /** For tests: the document of one search entry as the derivation writes it (revision aside). */
    static Document document(Favourite favourite, String term) {
        return new Document(Favs.SEARCH_ENTRY, entry(favourite, term), 0);
    }
}
