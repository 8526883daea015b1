package io.tally.domains.favs;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Functions 5 and 6 of seed 004: {@code POST}, {@code PATCH}, {@code DELETE} and {@code GET} of a user's tags. */
record TagRoutes(RouteContext context, TagStore tags, FavStore favourites) {
    static final int NAME_MAX = 50;
    private static final String SORTS =
            Arrays.stream(TagStore.Sort.values()).map(sort -> sort.value).collect(Collectors.joining(", "));
    private static final Field<String> TAG_ID = Field.id("tagId");
    private static final Field<String> NAME = Field.string("name", 1, NAME_MAX).required();
    /** The bodies of {@code POST /users/{userId}/tags} and {@code PATCH .../tags/{tagId}}. */
    private static final Fields CREATE = Fields.of(TAG_ID, NAME);
    private static final Fields RENAME = Fields.of(NAME);

    void register(Router router) {
        router.add("POST", "/users/{userId}/tags", Access.owner("userId"), this::create)
                    .summary("Create a tag (its name unique for the user, ignoring case)").body(CREATE)
                    .returns(201, Tag.class)
                .add("GET", "/users/{userId}/tags", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A user's tags by name, creation or last access").query("sort").page(Tag.class)
                .add("PATCH", "/users/{userId}/tags/{tagId}", Access.owner("userId"), this::rename)
                    .summary("Rename a tag").body(RENAME).returns(200, Tag.class)
                .add("DELETE", "/users/{userId}/tags/{tagId}", Access.owner("userId"), this::delete)
                    .summary("Delete a tag (the stream processor removes its links)").returns(200, Tag.class);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        Body body = Body.parse(request.body(), CREATE);
        String tagId = body.get(TAG_ID);
        String name = body.get(NAME);
        Instant now = context.now();
        Tag tag = new Tag(userId, context.idOrNew(tagId), name, now, now, context.ids().next());
        tags.create(tag);
        return ApiResponse.created(tag, "/users/" + userId + "/tags/" + tag.tagId());
    }

    ApiResponse rename(ApiRequest request) {
        String userId = request.id("userId");
        String tagId = request.id("tagId");
        String name = Body.parse(request.body(), RENAME).get(NAME);
        return ApiResponse.ok(tags.rename(userId, tagId, name));
    }

    /** 200 with the tag as it was; its links are removed by the stream processor. */
    ApiResponse delete(ApiRequest request) {
        return ApiResponse.ok(tags.delete(request.id("userId"), request.id("tagId")));
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        TagStore.Sort sort = sort(request.queryParameter("sort"));
        return context.page(request, "tags:" + userId + ":" + sort.value, sort.listKey(), (limit, start) -> {
            favourites.requireUser(userId);
            return tags.list(userId, sort, limit, start);
        }, Tag::fromItem);
    }

    private static TagStore.Sort sort(String value) {
        if (value == null) {
            return TagStore.Sort.CREATED;
        }
        return Arrays.stream(TagStore.Sort.values()).filter(sort -> sort.value.equals(value)).findFirst()
                .orElseThrow(() -> ApiException.badRequest("'sort' must be one of " + SORTS, "sort"));
    }
}
