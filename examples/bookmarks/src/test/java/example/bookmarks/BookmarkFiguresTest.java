package example.bookmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bookmarks' figures as the engine derives them (the views joined with the domain's event), against DOMAIN.md's
 * definitions counted here by hand over the bookmarks that exist: per item, per user, and per item and month of
 * {@code createdAt}; and one {@code BookmarkChanged} per change.
 */
class BookmarkFiguresTest {
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    @Test
    void figures_afterRandomCreatesReplacesAndDeletes_areTheHandCountOfWhatExists() {
        Random random = new Random(11);
        Map<Key, Bookmark> existing = new HashMap<>();
        Map<String, Long> derived = new HashMap<>();
        for (int step = 0; step < 2_000; step++) {
            String userId = "u" + random.nextInt(6);
            String itemId = "i" + random.nextInt(4);
            Bookmark before = existing.get(Bookmark.key(userId, itemId));
            Bookmark after = random.nextInt(4) == 0 ? null : new Bookmark(userId, itemId, null,
                    Instant.parse("2026-10-31T12:00:00Z").plusSeconds(3_600L * random.nextInt(24)),
                    Instant.parse("2026-12-01T00:00:00Z"));
            IntendedChanges changes = derivations.derive(Bookmarks.BOOKMARK, "r" + step,
                    before == null ? null : Bookmark.SCHEMA.toItem(before),
                    after == null ? null : Bookmark.SCHEMA.toItem(after));
            assertThat(changes.problems()).isEmpty();
            assertThat(changes.events()).hasSize(before == null && after == null ? 0 : 1);
            changes.counterDeltas().forEach((counter, delta) -> derived.merge(name(counter), delta, Long::sum));
            derived.values().removeIf(value -> value == 0);
            if (after == null) {
                existing.remove(Bookmark.key(userId, itemId));
            } else {
                existing.put(after.key(), after);
            }
            assertThat(derived).as("step %d", step).isEqualTo(handCount(existing.values()));
        }
    }

    @Test
    void aDelete_announcesBookmarkedFalse_andKeepsTheRankingEntrysDocument() {
        Bookmark bookmark = new Bookmark("u1", "55", "n", Instant.parse("2026-11-03T10:00:00Z"),
                Instant.parse("2026-11-03T10:00:00Z"));
        IntendedChanges deleted = derivations.derive(Bookmarks.BOOKMARK, "r1", Bookmark.SCHEMA.toItem(bookmark), null);

        assertThat(deleted.events()).singleElement().satisfies(event -> {
            assertThat(event.detailType()).isEqualTo("BookmarkChanged");
            assertThat(event.detail()).containsEntry("bookmarked", false).containsEntry("itemId", "55");
        });
        // The entry's document stays in the index at its figure 0 (never removed: a constant document).
        assertThat(deleted.documents()).isEmpty();
        assertThat(deleted.counterDeltas().keySet()).extracting(CounterRef::key)
                .contains(new Key("TOPBOOKMARKED#55", "MONTH#2026-11"));
    }

    /** Each figure, by its item's key and attribute, of the bookmarks that exist; zeros left out. */
    private static Map<String, Long> handCount(Iterable<Bookmark> bookmarks) {
        Map<String, Long> counts = new HashMap<>();
        for (Bookmark bookmark : bookmarks) {
            counts.merge("ITEMBOOKMARKS#" + bookmark.itemId() + " #STATS# bookmarks", 1L, Long::sum);
            counts.merge("USERBOOKMARKS#" + bookmark.userId() + " #STATS# bookmarks", 1L, Long::sum);
            counts.merge("TOPBOOKMARKED#" + bookmark.itemId() + " MONTH#"
                    + bookmark.createdAt().toString().substring(0, 7) + " data", 1L, Long::sum);
        }
        return counts;
    }

    private static String name(CounterRef counter) {
        return counter.key().pk() + " " + counter.key().sk() + " " + counter.attribute();
    }

    @Test
    void theRoutesTallyGenerates_areTheContractsStatsRoutes() {
        assertThat(List.of(BookmarkFigures.PER_ITEM.read().orElseThrow().path(),
                BookmarkFigures.PER_USER.read().orElseThrow().path(), BookmarkFigures.TOP.read().orElseThrow().path()))
                .containsExactly("/stats/items/{itemId}/bookmarks", "/stats/users/{userId}/bookmarks",
                        "/stats/bookmarks/top");
    }
}
