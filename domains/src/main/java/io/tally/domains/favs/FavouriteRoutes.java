package io.tally.domains.favs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Ids;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.http.Router;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Resume;
import io.tally.core.read.ShardMerge;
import io.tally.core.store.QueryPage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
    /** One of {@link FavouriteType#VALUES}, which the handler checks. */
    private static final Field<String> TYPE = Field.string("type", 1, 20).required();
    private static final Field<String> TITLE = Field.string("title", 1, TITLE_MAX).required();
    private static final Field<String> CONTENT_URL = Field.url("contentUrl", URL_MAX);
    private static final Field<String> THUMBNAIL_URL = Field.url("thumbnailUrl", URL_MAX);
    private static final Field<String> CREATOR_ID = Field.string("creatorId", 1, CREATOR_MAX);
    /** The body of {@code POST /users/{userId}/favourites}. */
    private static final Fields CREATE = Fields.of(FAVOURITE_ID, TYPE, TITLE, CONTENT_URL, THUMBNAIL_URL, CREATOR_ID);

    /** The search route first: the literal segment wins over {@code {favouriteId}}. */
    void register(Router router) {
        router.add("GET", "/users/{userId}/favourites/" + SEARCH, Access.ownerOrAdmin("userId"), this::search)
                    .summary("Search a user's favourites by the words of their titles, newest first").query("q")
                    .page(Favourite.class)
                .add("POST", "/users/{userId}/favourites", Access.owner("userId"), this::create)
                    .summary("Collect a favourite").body(CREATE).returns(201, Favourite.class)
                .add("GET", "/users/{userId}/favourites", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A user's favourites, newest first, of a type, a tag or both").query("type", "tag")
                    .page(Favourite.class)
                .add("GET", "/users/{userId}/favourites/{favouriteId}", Access.ownerOrAdmin("userId"), this::get)
                    .summary("A favourite").returns(200, Favourite.class)
                .add("DELETE", "/users/{userId}/favourites/{favouriteId}", Access.owner("userId"), this::delete)
                    .summary("Un-collect a favourite (the stream processor removes its tag links)")
                    .returns(200, Favourite.class);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        Body body = Body.parse(request.body(), CREATE);
        String favouriteId = body.get(FAVOURITE_ID);
        if (SEARCH.equals(favouriteId)) {
            throw ApiException.validation("favouriteId", "'" + SEARCH + "' is not a valid favourite id");
        }
        String typeValue = body.get(TYPE);
        FavouriteType type = FavouriteType.parse(typeValue).orElseThrow(() ->
                ApiException.validation("type", "'type' must be one of " + FavouriteType.VALUES));
        String title = body.get(TITLE);
        String contentUrl = body.get(CONTENT_URL);
        String thumbnailUrl = body.get(THUMBNAIL_URL);
        String creatorId = body.get(CREATOR_ID);
        Favourite favourite = new Favourite(userId, context.idOrNew(favouriteId), type, title, contentUrl, thumbnailUrl,
                creatorId, context.now(), context.ids().next());
        favourites.create(favourite);
        return ApiResponse.created(favourite, "/users/" + userId + "/favourites/" + favourite.favouriteId());
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(favourites.get(request.id("userId"), request.id("favouriteId")));
    }

    /** 200 with the favourite as it was; its tag links are removed by the stream processor. */
    ApiResponse delete(ApiRequest request) {
        return ApiResponse.ok(favourites.delete(request.id("userId"), request.id("favouriteId")));
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
        int limit = Page.limit(request);
        int types = FavouriteType.values().length;
        List<Resume> from = ShardMerge.decode(context.cursors(), scope, request.queryParameter("cursor"), types,
                FavStore::isValidPosition);
        favourites.requireUser(userId);
        MergedPage<Map<String, AttributeValue>> page = favourites.all(userId, from, limit);
        List<ObjectNode> items = page.items().stream().map(item -> Json.tree(Favourite.listed(item))).toList();
        return ApiResponse.ok(Page.body(items, ShardMerge.encode(context.cursors(), scope, page.next())));
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
