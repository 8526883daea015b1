package io.tally.domains.favs;

import io.tally.core.Key;
import io.tally.core.Timestamps;
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
