package io.tally.domains.favs;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;
import java.time.Instant;

/** Function 7 of seed 004: tag and untag a favourite, and list its tags. */
record LinkRoutes(RouteContext context, FavStore favourites, TagStore tags) {
    /** A link as the contract shows it. */
    record TagLink(String favouriteId, String tagId, Instant linkedAt) {
        static TagLink of(FavouriteTag link) {
            return new TagLink(link.favouriteId(), link.tagId(), link.linkedAt());
        }
    }

    void register(Router router) {
        router.add("PUT", "/users/{userId}/favourites/{favouriteId}/tags/{tagId}", Access.owner("userId"), this::link)
                    .summary("Tag a favourite (201 linked, 200 already)").returns(201, TagLink.class)
                .add("DELETE", "/users/{userId}/favourites/{favouriteId}/tags/{tagId}", Access.owner("userId"), this::unlink)
                    .summary("Untag a favourite").returns(200, TagLink.class)
                .add("GET", "/users/{userId}/favourites/{favouriteId}/tags", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A favourite's tags, by id").page(Tag.class);
    }

    /** 201 when linked now, 200 when the favourite had the tag already: {@code {"favouriteId","tagId","linkedAt"}}. */
    ApiResponse link(ApiRequest request) {
        String userId = request.id("userId");
        String favouriteId = request.id("favouriteId");
        String tagId = request.id("tagId");
        FavStore.Linked linked = favourites.link(userId, favouriteId, tagId, tags, context.now());
        String location = "/users/" + userId + "/favourites/" + favouriteId + "/tags/" + tagId;
        TagLink link = TagLink.of(linked.link());
        return linked.created() ? ApiResponse.created(link, location) : ApiResponse.ok(link);
    }

    ApiResponse unlink(ApiRequest request) {
        return ApiResponse.ok(TagLink.of(favourites.unlink(request.id("userId"), request.id("favouriteId"),
                request.id("tagId"))));
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        String favouriteId = request.id("favouriteId");
        return context.page(request, "favourite-tags:" + userId + ":" + favouriteId, FavStore.TABLE_KEY,
                (limit, start) -> favourites.tags(userId, favouriteId, limit, start), Tag::fromItem);
    }
}
