package example.reviews;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import java.util.Set;

/**
 * A user's reviews of catalogue items: only the reviewer writes; the reviewer or an admin reads a review. The figures'
 * read routes are their views' ({@link ReviewFigures}).
 */
record ReviewRoutes(RouteContext context, ReviewStore reviews) {
    static final int TEXT_MAX = 2_000;
    private static final Set<String> FIELDS = Set.of("stars", "text");

    void register(Router router) {
        router.add("PUT", "/users/{userId}/reviews/{itemId}", Access.owner("userId"), this::put)
                    .summary("Review a catalogue item (201 created, 200 replaced)").body(FIELDS)
                    .returns(201, Review.class)
                .add("GET", "/users/{userId}/reviews/{itemId}", Access.ownerOrAdmin("userId"), this::get)
                    .summary("A user's review of an item").returns(200, Review.class)
                .add("DELETE", "/users/{userId}/reviews/{itemId}", Access.owner("userId"), this::delete)
                    .summary("Delete a review").returns(200, Review.class);
    }

    ApiResponse put(ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        Body body = Body.parse(request.body(), FIELDS);
        long stars = body.requiredLong("stars", 1, 5);
        String text = body.optionalMultiline("text", 0, TEXT_MAX);
        context.requireExists(Users.USER.attributeValue(), userId, "user");
        context.requireExists(ReviewFigures.CATALOGUE_ITEM.attributeValue(), itemId, "catalogue item");
        Review review = new Review(userId, itemId, stars, text, context.now());
        boolean replaced = reviews.put(review);
        String location = "/users/" + userId + "/reviews/" + itemId;
        return replaced ? ApiResponse.ok(review) : ApiResponse.created(review, location);
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(reviews.get(request.id("userId"), request.id("itemId")));
    }

    ApiResponse delete(ApiRequest request) {
        return ApiResponse.ok(reviews.delete(request.id("userId"), request.id("itemId")));
    }

}
