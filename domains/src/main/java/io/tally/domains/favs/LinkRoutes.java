package io.tally.domains.favs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Function 7 of seed 004: tag and untag a favourite, and list its tags. */
final class LinkRoutes {
    private final RouteContext context;
    private final FavStore favourites;
    private final TagStore tags;

    LinkRoutes(RouteContext context, FavStore favourites, TagStore tags) {
        this.context = context;
        this.favourites = favourites;
        this.tags = tags;
    }

    void register(Router router) {
        router.add("PUT", "/users/{userId}/favourites/{favouriteId}/tags/{tagId}", Access.owner("userId"), this::link)
                .add("DELETE", "/users/{userId}/favourites/{favouriteId}/tags/{tagId}", Access.owner("userId"), this::unlink)
                .add("GET", "/users/{userId}/favourites/{favouriteId}/tags", Access.ownerOrAdmin("userId"), this::list);
    }

    /** 201 when linked now, 200 when the favourite had the tag already: {@code {"favouriteId","tagId","linkedAt"}}. */
    ApiResponse link(ApiRequest request) {
        String userId = request.id("userId");
        String favouriteId = request.id("favouriteId");
        String tagId = request.id("tagId");
        FavStore.Linked linked = favourites.link(userId, favouriteId, tagId, tags, context.now());
        ObjectNode body = FavsJson.link(linked.link());
        return linked.created()
                ? ApiResponse.created(body, "/users/" + userId + "/favourites/" + favouriteId + "/tags/" + tagId)
                : ApiResponse.ok(body);
    }

    ApiResponse unlink(ApiRequest request) {
        return ApiResponse.ok(FavsJson.link(favourites.unlink(request.id("userId"), request.id("favouriteId"),
                request.id("tagId"))));
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        String favouriteId = request.id("favouriteId");
        int limit = Page.limit(request);
        String scope = "favourite-tags:" + userId + ":" + favouriteId;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), FavRequests.TABLE_KEY);
        FavStore.TagPage page = favourites.tags(userId, favouriteId, limit, start);
        List<ObjectNode> items = page.tags().stream().map(FavsJson::tag).toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }
}
