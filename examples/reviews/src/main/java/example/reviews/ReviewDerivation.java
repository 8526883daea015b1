package example.reviews;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.util.List;

/**
 * An existing review counts once for its item (with its stars, for the mean) and once for its reviewer; a deleted one
 * no longer counts. Every change announces {@code ReviewChanged}.
 */
final class ReviewDerivation extends EntityDerivation<Review> {
    /** A review is a user's own data: its event is not for a public feed. */
    static final EventType REVIEW_CHANGED = EventType.of("ReviewChanged", ReviewChanged.class);

    ReviewDerivation() {
        super(Reviews.REVIEW, Review.SCHEMA::fromItem);
    }

    @Override
    protected Contribution contribution(Review review) {
        return Contribution.builder()
                .count(Reviews.ITEM_REVIEWS, review.itemId(), Reviews.REVIEWS, 1)
                .count(Reviews.ITEM_REVIEWS, review.itemId(), Reviews.STARS, review.stars())
                .count(Reviews.USER_REVIEWS, review.userId(), Reviews.REVIEWS, 1)
                .build();
    }

    @Override
    protected List<DomainEvent> events(String eventId, Review before, Review after) {
        Review review = after != null ? after : before;
        if (review == null) {
            return List.of();
        }
        return List.of(DomainEvent.about(eventId, REVIEW_CHANGED, review.userId() + "/" + review.itemId(),
                id -> new ReviewChanged(id, review.userId(), review.itemId(), after == null ? null : after.stars(),
                        before == null ? null : before.stars())));
    }
}
