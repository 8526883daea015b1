package io.tally.domains.favs;

import io.tally.core.Ids;
import io.tally.core.domain.EntityResource;
import io.tally.core.domain.RouteContext;
import io.tally.core.domain.ShardedList;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import io.tally.core.users.Users;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Functions 1 to 4 and 8 to 10 of seed 004: collect, un-collect, get, list (all, by type, by tag, by tag and type)
 * and search a user's favourites (the domain's read side, {@code GET /stats/users/{userId}/favourites}, is its view's:
 * {@link FavFigures}).
 */
record FavouriteRoutes(RouteContext context, FavStore favourites, TagStore tags) {
    static final int TITLE_MAX = 200;
    static final int URL_MAX = 2_048;
    static final int CREATOR_MAX = 100;
    /** The search route's path segment, which a favourite id therefore cannot be. */
    static final String SEARCH = "search";
    static final int QUERY_MAX = 200;
    static final int QUERY_WORDS_MAX = 10;
    private static final Field<String> FAVOURITE_ID = Field.id("favouriteId");
    /** Function 3, all types newest first: the type partitions of FavouritesByType, merged by clip time and key. */
    private static final ShardedList ALL_TYPES = ShardedList.of(FavKeys.FAVOURITES_BY_TYPE, Favourite::listed);
    /** One of {@link FavouriteType#VALUES}, which the handler checks. */
    private static final Field<String> TYPE = Field.string("type", 1, 20).required();
    private static final Field<String> TITLE = Field.string("title", 1, TITLE_MAX).required();
    private static final Field<String> CONTENT_URL = Field.url("contentUrl", URL_MAX);
    private static final Field<String> THUMBNAIL_URL = Field.url("thumbnailUrl", URL_MAX);
    private static final Field<String> CREATOR_ID = Field.string("creatorId", 1, CREATOR_MAX);

    /**
     * A user's favourites: collected under an id the body gives (not {@value #SEARCH}) or a new one, if the user
     * exists; read; un-collected (the stream processor removes their tag links).
     */
    static final EntityResource<Favourite> RESOURCE = EntityResource.at("/users/{userId}/favourites/{favouriteId}",
                    Favourite.SCHEMA, ids -> FavKeys.favourite(ids.get("userId"), ids.get("favouriteId")))
            .post(Access.owner("userId"), "Collect a favourite", Fields.of(FAVOURITE_ID, TYPE, TITLE, CONTENT_URL,
                    THUMBNAIL_URL, CREATOR_ID), FavouriteRoutes::collected, EntityResource.exists("userId", Users.USER))
            .get(Access.ownerOrAdmin("userId"), "A favourite")
            .delete(Access.owner("userId"), "Un-collect a favourite (the stream processor removes its tag links)");

    /** The favourite a {@code POST} collects: its id not the search route's segment, its type one of the types. */
    private static Favourite collected(Map<String, String> ids, Body body, RouteContext context) {
        String favouriteId = ids.get("favouriteId");
        if (SEARCH.equals(favouriteId)) {
            throw ApiException.validation("favouriteId", "'" + SEARCH + "' is not a valid favourite id");
        }
        FavouriteType type = FavouriteType.parse(body.get(TYPE)).orElseThrow(() ->
                ApiException.validation("type", "'type' must be one of " + FavouriteType.VALUES));
        return new Favourite(ids.get("userId"), favouriteId, type, body.get(TITLE), body.get(CONTENT_URL),
                body.get(THUMBNAIL_URL), body.get(CREATOR_ID), context.now(), context.ids().next());
    }

    /** The search route's literal segment wins over {@code {favouriteId}} (the router picks the most specific). */
    void register(Router router) {
        router.add("GET", "/users/{userId}/favourites/" + SEARCH, Access.ownerOrAdmin("userId"), this::search)
                    .summary("Search a user's favourites by the words of their titles, newest first").query("q")
                    .page(Favourite.class)
                .add("GET", "/users/{userId}/favourites", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A user's favourites, newest first, of a type, a tag or both").query("type", "tag")
                    .page(Favourite.class);
    }

    /**
     * Newest first: all types (the type partitions merged), one type, a tag, or a tag and a type. Listing by a tag
     * records an access of the tag ({@link TagStore#touch}).
     */
    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        FavouriteType type = typeParameter(request.queryParameter("type"));
        String tagId = tagParameter(request.queryParameter("tag"));
        String scope = "favourites:" + userId + ":" + (type == null ? "" : type.value()) + ":"
                + (tagId == null ? "" : tagId);
        if (tagId != null) {
            Set<String> key = type == null ? FavStore.BY_TAG_KEY : FavStore.BY_TAG_TYPE_KEY;
            return context.page(request, scope, key, (limit, start) -> {
                Tag tag = tags.get(userId, tagId);
                QueryPage page = favourites.byTag(userId, tagId, type, limit, start);
                tags.touch(tag, context.now());
                return page;
            }, Favourite::listed);
        }
        if (type != null) {
            return context.page(request, scope, FavStore.BY_TYPE_KEY, (limit, start) -> {
                favourites.requireUser(userId);
                return favourites.byType(userId, type, limit, start);
            }, Favourite::listed);
        }
        List<String> partitions = Arrays.stream(FavouriteType.values()).map(each -> FavKeys.byType(userId, each))
                .toList();
        return ALL_TYPES.page(context, request, scope, partitions, () -> favourites.requireUser(userId));
    }

    /** Function 10: every word of {@code q} in the title, the last as a prefix; newest first. */
    ApiResponse search(ApiRequest request) {
        String userId = request.id("userId");
        String q = request.queryParameter("q");
        List<String> words = q == null || q.length() > QUERY_MAX ? List.of() : SearchTerms.words(q);
        if (words.isEmpty() || words.size() > QUERY_WORDS_MAX) {
            throw ApiException.badRequest("'q' must hold 1.." + QUERY_WORDS_MAX + " words of letters and digits"
                    + " (at most " + QUERY_MAX + " characters)", "q");
        }
        String scope = "favourites-search:" + userId + ":" + String.join(" ", words);
        return context.page(request, scope, FavStore.SEARCH_KEY, (limit, start) -> {
            favourites.requireUser(userId);
            return favourites.search(userId, words, limit, start);
        }, Favourite::listed);
    }

    private static FavouriteType typeParameter(String value) {
        if (value == null) {
            return null;
        }
        return FavouriteType.parse(value).orElseThrow(() ->
                ApiException.badRequest("'type' must be one of " + FavouriteType.VALUES, "type"));
    }

    private static String tagParameter(String value) {
        if (value != null && !Ids.isValid(value)) {
            throw ApiException.badRequest("'tag' must match " + Ids.PATTERN.pattern(), "tag");
        }
        return value;
    }
}
