package io.tally.domains.favs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Functions 5 and 6 of seed 004: {@code POST}, {@code PATCH}, {@code DELETE} and {@code GET} of a user's tags. */
final class TagRoutes {
    static final int NAME_MAX = 50;
    private static final String SORTS =
            Arrays.stream(TagRequests.Sort.values()).map(sort -> sort.value).collect(Collectors.joining(", "));

    private final RouteContext context;
    private final TagStore tags;
    private final FavStore favourites;

    TagRoutes(RouteContext context, TagStore tags, FavStore favourites) {
        this.context = context;
        this.tags = tags;
        this.favourites = favourites;
    }

    void register(Router router) {
        router.add("POST", "/users/{userId}/tags", Access.owner("userId"), this::create)
                .add("GET", "/users/{userId}/tags", Access.ownerOrAdmin("userId"), this::list)
                .add("PATCH", "/users/{userId}/tags/{tagId}", Access.owner("userId"), this::rename)
                .add("DELETE", "/users/{userId}/tags/{tagId}", Access.owner("userId"), this::delete);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        Body body = Body.parse(request.body(), Set.of("tagId", "name"));
        String tagId = body.optionalId("tagId");
        String name = body.requiredString("name", 1, NAME_MAX);
        Instant now = context.now();
        Tag tag = new Tag(userId, tagId == null ? context.ids().next() : tagId, name, now, now, context.ids().next());
        tags.create(tag);
        return ApiResponse.created(FavsJson.tag(tag), "/users/" + userId + "/tags/" + tag.tagId());
    }

    ApiResponse rename(ApiRequest request) {
        String userId = request.id("userId");
        String tagId = request.id("tagId");
        String name = Body.parse(request.body(), Set.of("name")).requiredString("name", 1, NAME_MAX);
        return ApiResponse.ok(FavsJson.tag(tags.rename(userId, tagId, name)));
    }

    /** 200 with the tag as it was; its links are removed by the stream processor. */
    ApiResponse delete(ApiRequest request) {
        return ApiResponse.ok(FavsJson.tag(tags.delete(request.id("userId"), request.id("tagId"))));
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        TagRequests.Sort sort = sort(request.queryParameter("sort"));
        int limit = Page.limit(request);
        String scope = "tags:" + userId + ":" + sort.value;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), sort.listKey());
        favourites.requireUser(userId);
        QueryPage page = tags.list(userId, sort, limit, start);
        List<ObjectNode> items = page.items().stream().map(item -> FavsJson.tag(Tag.fromItem(item))).toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }

    private static TagRequests.Sort sort(String value) {
        if (value == null) {
            return TagRequests.Sort.CREATED;
        }
        return Arrays.stream(TagRequests.Sort.values()).filter(sort -> sort.value.equals(value)).findFirst()
                .orElseThrow(() -> ApiException.badRequest("'sort' must be one of " + SORTS, "sort"));
    }
}
