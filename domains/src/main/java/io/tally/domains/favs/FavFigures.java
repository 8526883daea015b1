package io.tally.domains.favs;

import io.tally.core.http.Access;
import io.tally.core.users.Users;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;
import io.tally.core.view.SharedCounts;
import java.util.Arrays;
import java.util.Map;

/**
 * The favourites' figures, declared as a view (in a class of its own: it reads {@link Favourite#SCHEMA}): per user,
 * the favourites, per type and per tag (the links), in one item, {@code FAVS#<userId> / #STATS#}, with its route
 * {@code GET /stats/users/{userId}/favourites}; and the favourites in the global totals.
 */
public final class FavFigures {
    /** Stored names in {@code FavouriteStats}: the user's favourites, and the prefixes of per type and per tag. */
    public static final String FAVOURITES = "favourites";
    public static final String TYPE_PREFIX = "type:";
    public static final String TAG_PREFIX = "tag:";

    /** The route's answer: the types in the enumeration's order, the tags by id, zeros left out. */
    public record FavouriteStats(String userId, long favourites, Map<String, Long> byType, Map<String, Long> byTag) {
    }

    /** Shared: a user's links live in a partition per favourite, so the user's item is written from many. */
    public static final CounterView<Favourite, FavouriteStats> STATS = CounterView.over(Favourite.SCHEMA,
                    FavouriteStats.class)
            .key("FAVS#<userId> / #STATS#", FavKeys::favouriteStats)
            .groupBy(FavouriteStats::userId, Favourite::userId).count(FavouriteStats::favourites)
            .countPer(FavouriteStats::byType, favourite -> favourite.type().value(), TYPE_PREFIX,
                    Arrays.stream(FavouriteType.values()).map(FavouriteType::value).toList())
            .alsoFrom(FavouriteTag.SCHEMA, links -> links.groupBy(FavouriteStats::userId, FavouriteTag::userId)
                    .countPer(FavouriteStats::byTag, FavouriteTag::tagId, TAG_PREFIX))
            .shared()
            .read("/stats/users/{userId}/favourites", Access.ownerOrAdmin("userId"), Existence.of(Users.USER, "user"),
                    "A user's favourites, by type and by tag")
            .build();

    /** The global totals' favourites. */
    public static final SharedCounts<Favourite> GLOBAL = SharedCounts.over(Favourite.SCHEMA)
            .global(Favs.GLOBAL_FAVOURITES).build();

    private FavFigures() {
    }
}
