package example.reviews;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.util.List;

/**
 * Every change of a review announces {@code ReviewChanged}. Its figures (an existing review counts once for its item,
 * with its stars for the mean, and once for its reviewer) are the domain's views, which the registry joins to this.
 */
final class ReviewDerivation extends EntityDerivation<Review> {
    /** A review is a user's own data: its event is not for a public feed. */
    static final EventType REVIEW_CHANGED = EventType.of("ReviewChanged", ReviewChanged.class);

    ReviewDerivation() {
        super(Reviews.REVIEW, Review.SCHEMA::fromItem);
    }

    /**
     * The figures are the views' ({@link ReviewFigures#PER_ITEM}, {@link ReviewFigures#PER_USER}); this derivation
     * announces.
     */
    @Override
    protected Contribution contribution(Review review) {
        return Contribution.NONE;
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
