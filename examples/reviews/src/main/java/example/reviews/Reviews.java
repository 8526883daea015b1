package example.reviews;

import static io.tally.core.domain.EntityResource.exists;

import io.tally.core.EntityType;
import io.tally.core.demo.DemoApi;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.EntityResource;
import io.tally.core.events.EventType;
import io.tally.core.http.Access;
import io.tally.core.http.Fields;
import io.tally.core.users.Users;
import io.tally.core.workload.EntityWorkload;
import java.io.IOException;

/**
 * Reviews of catalogue items, declared once: a domain of one's own, plugged into Tally from outside its modules. It
 * builds on the users kernel and on the catalogue (whose items it looks up by id), and adds nothing to the shared stats
 * items: a review is an entity at its path (only the reviewer writes; the reviewer or an admin reads), its figures are
 * its own views ({@link ReviewFigures}), and every change announces {@code ReviewChanged}.
 *
 * <pre>
 * entity         pk                     sk
 * Review         USER#&lt;userId&gt;          REVIEW#&lt;itemId&gt;
 * derived:
 * ItemReviews    REVIEWS#&lt;itemId&gt;       #STATS#     (reviews, stars: the sum, for the mean)
 * UserReviews    USER#&lt;userId&gt;          #REVIEWS#   (reviews)
 * </pre>
 */
public final class Reviews extends DeclaredDomain {
    public static final EntityType REVIEW = EntityType.base("Review");
    /** A review is a user's own data: its event is not for a public feed. */
    static final EventType REVIEW_CHANGED = EventType.of("ReviewChanged", ReviewChanged.class);

    /**
     * The detail of {@code ReviewChanged}, announced for every change of a review.
     *
     * @param stars         the review's stars after the change; null when it was deleted
     * @param previousStars its stars before; null when it was created
     */
    public record ReviewChanged(String eventId, String userId, String itemId, Long stars, Long previousStars) {
        static ReviewChanged of(String eventId, Review before, Review after) {
            Review review = after != null ? after : before;
            return new ReviewChanged(eventId, review.userId(), review.itemId(), after == null ? null : after.stars(),
                    before == null ? null : before.stars());
        }
    }

    /** Users review, and what they review are the catalogue's items. */
    public Reviews() {
        super(Declaration.of("reviews")
                .requires("users", "catalogue")
                .entityTypes(REVIEW)
                .views(ReviewFigures.PER_ITEM, ReviewFigures.PER_USER)
                .resources(EntityResource.at("/users/{userId}/reviews/{itemId}", Review.SCHEMA)
                        .put(Access.owner("userId"), "Review a catalogue item (201 created, 200 replaced)",
                                Fields.of(Review.STARS, Review.TEXT), (ids, body, old, now) -> new Review(
                                        ids.get("userId"), ids.get("itemId"), body.get(Review.STARS),
                                        body.get(Review.TEXT), now), exists("userId", Users.USER),
                                exists("itemId", ReviewFigures.CATALOGUE_ITEM))
                        .get(Access.ownerOrAdmin("userId"), "A user's review of an item")
                        .delete(Access.owner("userId"), "Delete a review"))
                .announces(REVIEW_CHANGED, Review.SCHEMA, ReviewChanged::of)
                .demoSeed(Reviews::seedDemo)
                .workload(context -> new EntityWorkload<>(context, "r", 20, Review.SCHEMA, workload -> new Review(
                        workload.user(), workload.pick("i1", "i2", "i3", "i4", "i5"), 1 + workload.random().nextInt(5),
                        workload.random().nextBoolean() ? "Review " + workload.nextId("r") : null, workload.now()))));
    }

    /** user-8790 reviews two items of the seed catalogue. */
    private static void seedDemo(DemoApi api) throws IOException, InterruptedException {
        api.write("PUT", "/users/user-8790/reviews/55", DemoApi.body("stars", 5, "text", "Streams, finally clear."));
        api.write("PUT", "/users/user-8790/reviews/65", DemoApi.body("stars", 4));
    }
}
