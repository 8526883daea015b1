package io.tally.domains.favs;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.domain.TableIndex;
import java.time.Instant;
import java.util.Locale;

/**
 * The key patterns of favourites, tags and their links (seed 004). Identifiers are validated by
 * {@link io.tally.core.Ids} before they get here and search terms hold letters and digits only, so a {@code #} never
 * reaches a key from user input; a tag name reaches only the sort key of its own reservation, never a prefix query.
 *
 * <pre>
 * entity               pk                                 sk                 index keys
 * Tag                  TAGS#&lt;userId&gt;                       TAG#&lt;tagId&gt;         tagNameKey, tagCreatedKey, tagAccessedKey (LSIs)
 * TagName              TAGS#&lt;userId&gt;                       TAGNAME#&lt;lower(name)&gt; (reserves the name, ignoring case)
 * Favourite            FAVS#&lt;userId&gt;                       FAV#&lt;favouriteId&gt;   favTypeKey, clippedKey (FavouritesByType)
 * FavouriteTag         FAVTAGS#&lt;userId&gt;#&lt;favouriteId&gt;       TAG#&lt;tagId&gt;         linkTagKey, linkTagTypeKey, clippedKey
 * derived:
 * FavouriteStats       FAVS#&lt;userId&gt;                       #STATS#
 * FavouriteSearchEntry FAVSEARCH#&lt;userId&gt;#&lt;favouriteId&gt;     &lt;term&gt;             searchKey, clippedKey (FavouriteSearch)
 * </pre>
 */
public final class FavKeys {
    public static final String TAGS_PREFIX = "TAGS#";
    public static final String TAG_PREFIX = "TAG#";
    public static final String TAG_NAME_PREFIX = "TAGNAME#";
    public static final String FAVS_PREFIX = "FAVS#";
    public static final String FAV_PREFIX = "FAV#";
    public static final String LINKS_PREFIX = "FAVTAGS#";
    public static final String SEARCH_PREFIX = "FAVSEARCH#";
    public static final String STATS_SK = "#STATS#";

    /**
     * Seed 004's three LSIs over a user's tag partition ({@code TAGS#<userId>}): tags by name ignoring case, by
     * creation and by last access. Sparse: only tags carry the range keys, so the name reservations in the same
     * partition and the rest of the table pay nothing.
     */
    public static final String TAGS_BY_NAME_INDEX = "TagsByName";
    public static final String TAG_NAME_KEY = "tagNameKey";
    public static final String TAGS_BY_CREATION_INDEX = "TagsByCreation";
    public static final String TAG_CREATED_KEY = "tagCreatedKey";
    public static final String TAGS_BY_ACCESS_INDEX = "TagsByAccess";
    public static final String TAG_ACCESSED_KEY = "tagAccessedKey";
    /**
     * The range key of the favourites indexes: {@code <clippedAt>#<favouriteId>}, so that each lists newest first. It
     * is carried by favourites, links and live search entries, which each carry the hash key of their own indexes only.
     */
    public static final String CLIPPED_KEY = "clippedKey";
    /** Seed 004's GSI of favourites by user and type: hash {@link #FAV_TYPE_KEY} ({@code <userId>#<type>}). */
    public static final String FAVOURITES_BY_TYPE_INDEX = "FavouritesByType";
    public static final String FAV_TYPE_KEY = "favTypeKey";
    /** Seed 004's GSI of links by tag: hash {@link #LINK_TAG_KEY} ({@code <userId>#<tagId>}). */
    public static final String LINKS_BY_TAG_INDEX = "LinksByTag";
    public static final String LINK_TAG_KEY = "linkTagKey";
    /** Seed 004's GSI of links by tag and type: hash {@link #LINK_TAG_TYPE_KEY} ({@code <userId>#<tagId>#<type>}). */
    public static final String LINKS_BY_TAG_TYPE_INDEX = "LinksByTagType";
    public static final String LINK_TAG_TYPE_KEY = "linkTagTypeKey";
    /**
     * The search projection's GSI: hash {@link #SEARCH_KEY} ({@code <userId>#<term>}), a document field of the entries
     * the stream processor writes, removed with the document, so that the index holds exactly the live entries.
     */
    public static final String FAVOURITE_SEARCH_INDEX = "FavouriteSearch";
    public static final String SEARCH_KEY = "searchKey";

    static final TableIndex TAGS_BY_NAME = TableIndex.local(TAGS_BY_NAME_INDEX, TAG_NAME_KEY).described("Seed 004's"
            + " three tag LSIs over a user's tag partition (TAGS#<userId>): by name ignoring case, by creation, by last"
            + " access. Sparse: only tags carry the range keys (not the name reservations beside them). An LSI can only"
            + " be created with the table: an existing table must be recreated (README, \"Upgrading a deployment\").");
    static final TableIndex TAGS_BY_CREATION = TableIndex.local(TAGS_BY_CREATION_INDEX, TAG_CREATED_KEY);
    static final TableIndex TAGS_BY_ACCESS = TableIndex.local(TAGS_BY_ACCESS_INDEX, TAG_ACCESSED_KEY);
    static final TableIndex FAVOURITES_BY_TYPE = TableIndex.global(FAVOURITES_BY_TYPE_INDEX, FAV_TYPE_KEY, CLIPPED_KEY)
            .described("Seed 004: a user's favourites of one type, newest first. Sparse: only favourites carry"
                    + " favTypeKey.");
    static final TableIndex LINKS_BY_TAG = TableIndex.global(LINKS_BY_TAG_INDEX, LINK_TAG_KEY, CLIPPED_KEY)
            .described("Seed 004: the favourites under a tag, newest first. Sparse: only links carry linkTagKey (and a"
                    + " copy of their favourite's fields, so that the list needs no second read).");
    static final TableIndex LINKS_BY_TAG_TYPE = TableIndex.global(LINKS_BY_TAG_TYPE_INDEX, LINK_TAG_TYPE_KEY,
            CLIPPED_KEY).described("Seed 004: the favourites of one type under a tag, newest first. Sparse: only"
                    + " links.");
    static final TableIndex FAVOURITE_SEARCH = TableIndex.global(FAVOURITE_SEARCH_INDEX, SEARCH_KEY, CLIPPED_KEY)
            .including(TableSchema.ENTITY_TYPE, "favouriteId", "userId", "type", "title", "contentUrl",
                    "thumbnailUrl", "creatorId", "clippedAt", "words")
            .described("Seed 004's search projection: a user's favourites with a word starting with a term, newest"
                    + " first. Only live search entries carry searchKey (the stream processor removes it with the"
                    + " entry's document). The projection leaves out the engine's bookkeeping (watermarks, srcRev),"
                    + " which changes with every write.");

    private FavKeys() {
    }

    public static String tagsPk(String userId) {
        return TAGS_PREFIX + userId;
    }

    public static Key tag(String userId, String tagId) {
        return new Key(tagsPk(userId), TAG_PREFIX + tagId);
    }

    /** A tag name's reservation: names are unique per user ignoring case. */
    public static Key tagName(String userId, String name) {
        return new Key(tagsPk(userId), TAG_NAME_PREFIX + nameKey(name));
    }

    /** A name as it is compared and sorted: ignoring case. */
    public static String nameKey(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    public static String favouritesPk(String userId) {
        return FAVS_PREFIX + userId;
    }

    public static Key favourite(String userId, String favouriteId) {
        return new Key(favouritesPk(userId), FAV_PREFIX + favouriteId);
    }

    /** The partition of a favourite's tag links. */
    public static String linksPk(String userId, String favouriteId) {
        return LINKS_PREFIX + userId + "#" + favouriteId;
    }

    public static Key link(String userId, String favouriteId, String tagId) {
        return new Key(linksPk(userId, favouriteId), TAG_PREFIX + tagId);
    }

    /** FavouritesByType's partition: a user's favourites of one type. */
    public static String byType(String userId, FavouriteType type) {
        return userId + "#" + type.value();
    }

    /** LinksByTag's partition: the links of one tag. */
    public static String byTag(String userId, String tagId) {
        return userId + "#" + tagId;
    }

    /** LinksByTagType's partition: the links of one tag to favourites of one type. */
    public static String byTagAndType(String userId, String tagId, FavouriteType type) {
        return userId + "#" + tagId + "#" + type.value();
    }

    /** The range key of every favourites index: clip time, then id (timestamps of one width, so newest first). */
    public static String clipped(Instant clippedAt, String favouriteId) {
        return Timestamps.format(clippedAt) + "#" + favouriteId;
    }

    /** FavouriteSearch's partition: a user's favourites with a word that starts with {@code term}. */
    public static String searchPartition(String userId, String term) {
        return userId + "#" + term;
    }

    public static Key favouriteStats(String userId) {
        return new Key(favouritesPk(userId), STATS_SK);
    }

    /** A search entry's subject: {@code <userId>#<favouriteId>#<term>}; none of the three holds a {@code #}. */
    public static String searchSubject(String userId, String favouriteId, String term) {
        return userId + "#" + favouriteId + "#" + term;
    }

    public static Key searchEntry(String subject) {
        String[] parts = subject.split("#", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not <userId>#<favouriteId>#<term>: " + subject);
        }
        return new Key(SEARCH_PREFIX + parts[0] + "#" + parts[1], parts[2]);
    }
}
