package example.reviews;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Router;
import io.tally.core.read.StatsJson;
import io.tally.core.users.Users;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user's reviews of catalogue items, and the two read-side figures the stream processor keeps of them. Only the
 * reviewer writes; the reviewer or an admin reads a review; the figures are public read side.
 */
record ReviewRoutes(RouteContext context, ReviewStore reviews) {
    static final int TEXT_MAX = 2_000;
    /** The catalogue's items, as the catalogue domain lets other domains find them. */
    static final String CATALOGUE_ITEM = "CatalogueItem";
    private static final Set<String> FIELDS = Set.of("stars", "text");

    /** {@code GET /stats/items/{itemId}/reviews}. */
    @JsonPropertyOrder({"itemId", "reviews", "averageStars"})
    record ItemReviews(String itemId, long reviews, Double averageStars) {
    }

    /** {@code GET /stats/users/{userId}/reviews}. */
    @JsonPropertyOrder({"userId", "reviews"})
    record UserReviews(String userId, long reviews) {
    }

    void register(Router router) {
        router.add("PUT", "/users/{userId}/reviews/{itemId}", Access.owner("userId"), this::put)
                    .summary("Review a catalogue item (201 created, 200 replaced)").body(FIELDS)
                    .returns(201, Review.class)
                .add("GET", "/users/{userId}/reviews/{itemId}", Access.ownerOrAdmin("userId"), this::get)
                    .summary("A user's review of an item").returns(200, Review.class)
                .add("DELETE", "/users/{userId}/reviews/{itemId}", Access.owner("userId"), this::delete)
                    .summary("Delete a review").returns(200, Review.class)
                .add("GET", "/stats/items/{itemId}/reviews", Access.READ_SIDE, this::itemStats)
                    .summary("An item's reviews and their mean stars").returns(200, ItemReviews.class)
                .add("GET", "/stats/users/{userId}/reviews", Access.READ_SIDE, this::userStats)
                    .summary("How many reviews a user has").returns(200, UserReviews.class);
    }

    ApiResponse put(ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        Body body = Body.parse(request.body(), FIELDS);
        long stars = body.requiredLong("stars", 1, 5);
        String text = body.optionalMultiline("text", 0, TEXT_MAX);
        context.requireExists(Users.USER.attributeValue(), userId, "user");
        context.requireExists(CATALOGUE_ITEM, itemId, "catalogue item");
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

    /** Zeros for an item with no review yet, {@code not_found} for one that was never written. */
    ApiResponse itemStats(ApiRequest request) {
        String itemId = request.id("itemId");
        Map<String, AttributeValue> item = reviews.derived(Reviews.ITEM_REVIEWS.key(itemId));
        if (item == null) {
            context.requireExists(CATALOGUE_ITEM, itemId, "catalogue item");
        }
        StatsJson.check(item, Reviews.ITEM_REVIEWS.entityType());
        long count = StatsJson.counter(item, Reviews.REVIEWS);
        return ApiResponse.ok(new ItemReviews(itemId, count, mean(StatsJson.counter(item, Reviews.STARS), count)));
    }

    ApiResponse userStats(ApiRequest request) {
        String userId = request.id("userId");
        Map<String, AttributeValue> item = reviews.derived(Reviews.USER_REVIEWS.key(userId));
        if (item == null) {
            context.requireExists(Users.USER.attributeValue(), userId, "user");
        }
        StatsJson.check(item, Reviews.USER_REVIEWS.entityType());
        return ApiResponse.ok(new UserReviews(userId, StatsJson.counter(item, Reviews.REVIEWS)));
    }

    /** The mean rounded half-up to 2 decimals; null without reviews. */
    static Double mean(long stars, long reviews) {
        return reviews == 0 ? null
                : BigDecimal.valueOf(stars).divide(BigDecimal.valueOf(reviews), 2, RoundingMode.HALF_UP).doubleValue();
    }
}
