package example.reviews;

import io.tally.core.Key;
import io.tally.core.domain.EntityTable;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
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
record ReviewRoutes(RouteContext context, EntityTable<Review> reviews) {
    static final int TEXT_MAX = 2_000;
    private static final String PATH = "/users/{userId}/reviews/{itemId}";
    private static final Set<String> FIELDS = Set.of("stars", "text");

    ReviewRoutes(RouteContext context) {
        this(context, EntityTable.of(context, Review.SCHEMA));
    }

    void register(Router router) {
        router.add("PUT", PATH, Access.owner("userId"), this::put)
                    .summary("Review a catalogue item (201 created, 200 replaced)").body(FIELDS)
                    .returns(201, Review.class)
                .add("GET", PATH, Access.ownerOrAdmin("userId"), request -> ApiResponse.ok(reviews.get(key(request))
                        .orElseThrow(() -> notFound(request)))).summary("A user's review of an item")
                    .returns(200, Review.class)
                .add("DELETE", PATH, Access.owner("userId"), request -> ApiResponse.ok(reviews.delete(key(request))
                        .orElseThrow(() -> notFound(request)))).summary("Delete a review").returns(200, Review.class);
    }

    /** Writes the review in one transaction with the checks that its user and its catalogue item exist. */
    ApiResponse put(ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        Body body = Body.parse(request.body(), FIELDS);
        long stars = body.requiredLong("stars", 1, 5);
        String text = body.optionalMultiline("text", 0, TEXT_MAX);
        EntityTable.Written<Review> written = reviews.put(key(request), old -> new Review(userId, itemId, stars, text,
                context.now()), new EntityTable.Requires(Users.USER, userId, "user"),
                new EntityTable.Requires(ReviewFigures.CATALOGUE_ITEM, itemId, "catalogue item"));
        return written.created() ? ApiResponse.created(written.after(), "/users/" + userId + "/reviews/" + itemId)
                : ApiResponse.ok(written.after());
    }

    private static Key key(ApiRequest request) {
        return Review.key(request.id("userId"), request.id("itemId"));
    }

    private static ApiException notFound(ApiRequest request) {
        return ApiException.notFound("user '" + request.id("userId") + "' has no review of item '"
                + request.id("itemId") + "'");
    }
}
