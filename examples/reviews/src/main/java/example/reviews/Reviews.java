package example.reviews;

import io.tally.core.EntityType;
import io.tally.core.ShardSettings;
import io.tally.core.demo.DemoApi;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import java.io.IOException;
import java.util.List;

/**
 * Reviews of catalogue items, declared once: a domain of one's own, plugged into Tally from outside its modules. It
 * builds on the users kernel and on the catalogue (whose items it looks up by id), and adds nothing to the shared stats
 * items: its figures are its own derived items.
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

    /**
     * Users review, and what they review are the catalogue's items.
     */
    public Reviews() {
        super(Declaration.of("reviews")
                .requires("users", "catalogue")
                .entityTypes(REVIEW)
                .views(ReviewFigures.PER_ITEM, ReviewFigures.PER_USER)
                .events(ReviewDerivation.REVIEW_CHANGED)
                .demoSeed(Reviews::seedDemo)
                .workload(ReviewsWorkload::new));
    }

    /** user-8790 reviews two items of the seed catalogue. */
    private static void seedDemo(DemoApi api) throws IOException, InterruptedException {
        api.write("PUT", "/users/user-8790/reviews/55", DemoApi.body("stars", 5, "text", "Streams, finally clear."));
        api.write("PUT", "/users/user-8790/reviews/65", DemoApi.body("stars", 4));
    }

    @Override
    public void routes(Router router, RouteContext context) {
        new ReviewRoutes(context, new ReviewStore(context.dynamo(), context.table())).register(router);
    }

    @Override
    public List<Derivation> derivations(ShardSettings shards) {
        return List.of(new ReviewDerivation());
    }
}
