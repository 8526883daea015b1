package example.reviews;

import io.tally.core.EntityType;
import io.tally.core.http.Access;
import io.tally.core.users.Users;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;

/**
 * The domain's two figures, declared as views: what they count, where they are kept, and their read routes with the
 * answers' JSON. A class of their own: they read reviews with {@link Review#SCHEMA}, whose entity type is
 * {@link Reviews#REVIEW}, so that the classes initialise in one order only.
 */
final class ReviewFigures {
    /** The catalogue's items, as the catalogue domain lets other domains find them. */
    static final EntityType CATALOGUE_ITEM = EntityType.base("CatalogueItem");

    /** {@code GET /stats/items/{itemId}/reviews}: an item's existing reviews and their mean stars. */
    public record ItemReviews(String itemId, long reviews, Double averageStars) {
    }

    /** {@code GET /stats/users/{userId}/reviews}: a user's existing reviews. */
    public record UserReviews(String userId, long reviews) {
    }

    /**
     * One item per reviewed item, with its reviews and the sum of their stars (for the mean). Shared: a review lives in
     * its reviewer's partition, so the records of every reviewer's partition change it.
     */
    static final CounterView<Review, ItemReviews> PER_ITEM = CounterView.over(Review.SCHEMA, ItemReviews.class)
            .key("REVIEWS#<itemId> / #STATS#")
            .groupBy(ItemReviews::itemId, Review::itemId)
            .count(ItemReviews::reviews)
            .average(ItemReviews::averageStars, Review::stars, "stars")
            .shared()
            .read("/stats/items/{itemId}/reviews", Access.READ_SIDE, Existence.of(CATALOGUE_ITEM, "catalogue item"),
                    "An item's reviews and their mean stars")
            .build();

    /** One item per reviewer, in the user's partition: the user's existing reviews. */
    static final CounterView<Review, UserReviews> PER_USER = CounterView.over(Review.SCHEMA, UserReviews.class)
            .key("USER#<userId> / #REVIEWS#")
            .groupBy(UserReviews::userId, Review::userId)
            .count(UserReviews::reviews)
            .read("/stats/users/{userId}/reviews", Access.READ_SIDE, Existence.of(Users.USER, "user"),
                    "How many reviews a user has")
            .build();

    private ReviewFigures() {
    }
}
