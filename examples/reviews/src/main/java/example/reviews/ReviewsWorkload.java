package example.reviews;

import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.util.ArrayList;
import java.util.List;

/** Reviews written, replaced and deleted by the workload's users, over a few items (the derivation never reads them). */
final class ReviewsWorkload extends AbstractWorkloadPart {
    private static final List<String> ITEMS = List.of("i1", "i2", "i3", "i4", "i5");
    private final List<Review> written = new ArrayList<>();

    ReviewsWorkload(WorkloadContext context) {
        super(context, "r", 20, true);
    }

    @Override
    public void step() {
        if (written.isEmpty() || random.nextInt(4) > 0) {
            Review review = new Review(context.user(), context.pick(ITEMS), 1 + random.nextInt(5),
                    random.nextBoolean() ? "Review " + id() : null, now());
            written.removeIf(old -> old.key().equals(review.key()));
            written.add(review);
            put(Review.SCHEMA.toItem(review));
        } else {
            delete(written.remove(random.nextInt(written.size())).key());
        }
    }
}
