package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.domain.DomainRegistry;
import io.tally.testkit.FigureCheck;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The domain loads beside Tally's, and its figures, as the engine derives them, are a count by hand of the likes that
 * exist after random creates, replaces and deletes (Tally's test kit runs the changes through the registry's
 * derivations and compares after each).
 */
class LikeFiguresTest {
    @Test
    void theDomain_loadsBesideTallysOwn_withItsRoute() {
        DomainRegistry registry = DomainRegistry.load();
        assertThat(registry.domains()).extracting(domain -> domain.name()).contains("users", "likes");
        assertThat(registry.entityType("Like")).isPresent();
    }

    @Test
    void figures_afterRandomChanges_areTheHandCountOfWhatExists() {
        FigureCheck.of(DomainRegistry.load(), Like.SCHEMA)
                .states(random -> new Like("u" + random.nextInt(5), "i" + random.nextInt(3),
                        Instant.parse("2026-11-01T00:00:00Z").plusSeconds(random.nextInt(86_400))))
                .model(LikeFiguresTest::handCount)
                .run(7, 500);
    }

    /** The figures by their stored names: one count per item with a like. */
    private static Map<String, Long> handCount(Collection<Like> likes) {
        Map<String, Long> counts = new HashMap<>();
        for (Like like : likes) {
            counts.merge("ITEMLIKES#" + like.itemId() + " #STATS# likes", 1L, Long::sum);
        }
        return counts;
    }
}
