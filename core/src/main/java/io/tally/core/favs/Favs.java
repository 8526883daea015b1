package io.tally.core.favs;

import io.tally.core.DerivedType;
import io.tally.core.DomainSchema;
import io.tally.core.EntityType;
import io.tally.core.TableSchema;
import java.util.List;

/**
 * The declarations of favourites with tags (seed 004): entity types, derived types, and what the domain counts in
 * the global totals. Keys are in {@link FavKeys}.
 */
public final class Favs {
    public static final EntityType TAG = EntityType.base("Tag");
    /** Reserves a tag name for one user, ignoring case. */
    public static final EntityType TAG_NAME = EntityType.base("TagName");
    public static final EntityType FAVOURITE = EntityType.base("Favourite");
    public static final EntityType FAVOURITE_TAG = EntityType.base("FavouriteTag");

    public static final String GLOBAL_FAVOURITES = "favourites";

    /** Attribute names of {@link #FAVOURITE_STATS}: the user's favourites, and per type and per tag. */
    public static final String STATS_FAVOURITES = "favourites";
    public static final String STATS_TYPE_PREFIX = "type:";
    public static final String STATS_TAG_PREFIX = "tag:";

    /**
     * One per user with favourites: {@code favourites}, {@code type:<type>} per type and {@code tag:<tagId>} per tag
     * (its links). The per-type and per-tag counters are families, named at run time.
     */
    public static final DerivedType FAVOURITE_STATS = DerivedType.named("FavouriteStats")
            .key("FAVS#<userId> / #STATS#", FavKeys::favouriteStats)
            .counters(STATS_FAVOURITES)
            .counterFamily(STATS_TYPE_PREFIX)
            .counterFamily(STATS_TAG_PREFIX)
            .build();

    /** The attribute of a search entry holding its title's words, each between spaces. */
    public static final String SEARCH_WORDS = "words";

    /**
     * The search projection: one entry per favourite and term of its title ({@link SearchTerms}), holding the
     * favourite's fields, in the sparse FavouriteSearch index while the favourite exists (its index keys are part of
     * the document, which a removal takes away).
     */
    public static final DerivedType SEARCH_ENTRY = DerivedType.named("FavouriteSearchEntry")
            .key("FAVSEARCH#<userId>#<favouriteId> / <term>", FavKeys::searchEntry)
            .document(Favourite.FAVOURITE_ID, Favourite.USER_ID, Favourite.TYPE, Favourite.TITLE, Favourite.CONTENT_URL,
                    Favourite.THUMBNAIL_URL, Favourite.CREATOR_ID, Favourite.CLIPPED_AT, SEARCH_WORDS)
            .indexKeys(TableSchema.SEARCH_KEY, TableSchema.CLIPPED_KEY)
            .build();

    public static final DomainSchema SCHEMA = new DomainSchema("favourites",
            List.of(TAG, TAG_NAME, FAVOURITE, FAVOURITE_TAG),
            List.of(FAVOURITE_STATS, SEARCH_ENTRY),
            List.of(),
            List.of(GLOBAL_FAVOURITES));

    private Favs() {
    }

    /** The counter of a type in {@link #FAVOURITE_STATS}. */
    public static String typeCounter(FavouriteType type) {
        return STATS_TYPE_PREFIX + type.value();
    }

    /** The counter of a tag in {@link #FAVOURITE_STATS}. */
    public static String tagCounter(String tagId) {
        return STATS_TAG_PREFIX + tagId;
    }
}
