package example.reviews;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The review's derivation against DOMAIN.md's figures, computed here by hand: an existing review counts once for its
 * item (its stars summed, for the mean) and once for its reviewer; every change announces {@code ReviewChanged}.
 */
class ReviewDerivationTest {
    private static final Instant AT = Instant.parse("2026-11-27T10:00:00.000Z");
    private static final DomainRegistry REGISTRY = DomainRegistry.load();
    /** The domain's own derivation (its events) joined with its views' (its figures), as the engine has them. */
    private final Derivations derivations = REGISTRY.derivations(ShardSettings.DEFAULTS);

    private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> review(long stars) {
        return Review.SCHEMA.toItem(new Review("u1", "55", stars, stars > 3 ? "Good" : null, AT));
    }

    private IntendedChanges change(long before, long after) {
        return derivations.derive(Reviews.REVIEW, "rec-1", before == 0 ? null : review(before),
                after == 0 ? null : review(after));
    }

    private static Map<String, Long> counters(IntendedChanges changes) {
        Map<String, Long> counters = new LinkedHashMap<>();
        for (Map.Entry<CounterRef, Long> delta : changes.counterDeltas().entrySet()) {
            counters.put(delta.getKey().type().name() + "/" + delta.getKey().attribute(), delta.getValue());
        }
        return counters;
    }

    @Test
    void create_countsTheReviewForItsItemWithItsStars_andForItsReviewer() {
        IntendedChanges changes = change(0, 4);

        assertThat(counters(changes)).containsOnly(Map.entry("ItemReviews/reviews", 1L),
                Map.entry("ItemReviews/stars", 4L), Map.entry("UserReviews/reviews", 1L));
        assertThat(changes.counterDeltas().keySet()).extracting(CounterRef::key).contains(
                new Key("REVIEWS#55", "#STATS#"), new Key("USER#u1", "#REVIEWS#"));
        assertThat(changes.problems()).isEmpty();
    }

    @Test
    void replace_movesOnlyTheStars() {
        assertThat(counters(change(2, 5))).containsOnly(Map.entry("ItemReviews/stars", 3L));
        assertThat(counters(change(5, 5))).isEmpty();
    }

    @Test
    void delete_takesTheReviewOutEverywhere() {
        assertThat(counters(change(3, 0))).containsOnly(Map.entry("ItemReviews/reviews", -1L),
                Map.entry("ItemReviews/stars", -3L), Map.entry("UserReviews/reviews", -1L));
    }

    @Test
    void everyChange_announcesReviewChanged_withTheStarsBeforeAndAfter() {
        assertThat(detail(change(0, 4))).containsExactly(Map.entry("eventId", "rec-1:ReviewChanged:u1/55"),
                Map.entry("userId", "u1"), Map.entry("itemId", "55"), Map.entry("stars", 4L),
                entry("previousStars", null));
        assertThat(detail(change(2, 5))).containsEntry("stars", 5L).containsEntry("previousStars", 2L);
        assertThat(detail(change(3, 0))).containsEntry("stars", null).containsEntry("previousStars", 3L);
    }

    @Test
    void mean_roundsHalfUpToTwoDecimals_andIsNullWithoutReviews() {
        assertThat(mean(13, 3)).isEqualTo(4.33);
        assertThat(mean(5, 3)).isEqualTo(1.67);
        assertThat(mean(9, 2)).isEqualTo(4.5);
        assertThat(mean(0, 0)).isNull();
    }

    private static Double mean(long stars, long reviews) {
        return ReviewFigures.PER_ITEM.answer("55", Map.of("reviews", reviews, "stars", stars)).averageStars();
    }

    private static Map<String, Object> detail(IntendedChanges changes) {
        assertThat(changes.events()).singleElement().extracting(DomainEvent::detailType).isEqualTo("ReviewChanged");
        return changes.events().get(0).detail();
    }

    private static Map.Entry<String, Object> entry(String key, Object value) {
        return new java.util.AbstractMap.SimpleEntry<>(key, value);
    }
}
