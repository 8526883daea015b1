package example.bookmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.testkit.FigureCheck;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        FigureCheck.of(DomainRegistry.load(), Bookmark.SCHEMA)
                .states(random -> new Bookmark("u" + random.nextInt(6), "i" + random.nextInt(4), null,
                        Instant.parse("2026-10-31T12:00:00Z").plusSeconds(3_600L * random.nextInt(24)),
                        Instant.parse("2026-12-01T00:00:00Z")))
                .model(BookmarkFiguresTest::handCount)
                // One BookmarkChanged per change.
                .eachChange((before, after, changes) -> assertThat(changes.events()).hasSize(1))
                .run(11, 2_000);
        // The kit fails a model that differs: here one that forgets the monthly ranking's entries.
        assertThatThrownBy(() -> FigureCheck.of(DomainRegistry.load(), Bookmark.SCHEMA)
                .states(random -> new Bookmark("u1", "i1", null, Instant.parse("2026-11-02T00:00:00Z"),
                        Instant.parse("2026-11-02T00:00:00Z")))
                .model(bookmarks -> {
                    Map<String, Long> counts = new HashMap<>(handCount(bookmarks));
                    counts.keySet().removeIf(name -> name.startsWith("TOPBOOKMARKED#"));
                    return counts;
                }).run(11, 5)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("TOPBOOKMARKED#i1 MONTH#2026-11 data");
        // And a check that never sees a figure (a model of nothing for an entity type that derives nothing here).
        assertThatThrownBy(() -> FigureCheck.of(DomainRegistry.load(), Bookmark.SCHEMA)
                .states(random -> new Bookmark("u1", "i1", null, Instant.parse("2026-11-02T00:00:00Z"),
                        Instant.parse("2026-11-02T00:00:00Z")))
                .model(bookmarks -> Map.of()).deletes(2).run(3, 0)).isInstanceOf(IllegalArgumentException.class);
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
    private static Map<String, Long> handCount(Collection<Bookmark> bookmarks) {
        Map<String, Long> counts = new HashMap<>();
        for (Bookmark bookmark : bookmarks) {
            counts.merge("ITEMBOOKMARKS#" + bookmark.itemId() + " #STATS# bookmarks", 1L, Long::sum);
            counts.merge("USERBOOKMARKS#" + bookmark.userId() + " #STATS# bookmarks", 1L, Long::sum);
            counts.merge("TOPBOOKMARKED#" + bookmark.itemId() + " MONTH#"
                    + bookmark.createdAt().toString().substring(0, 7) + " data", 1L, Long::sum);
        }
        return counts;
    }

    @Test
    void theRoutesTallyGenerates_areTheContractsStatsRoutes() {
        assertThat(List.of(BookmarkFigures.PER_ITEM.read().orElseThrow().path(),
                BookmarkFigures.PER_USER.read().orElseThrow().path(), BookmarkFigures.TOP.read().orElseThrow().path()))
                .containsExactly("/stats/items/{itemId}/bookmarks", "/stats/users/{userId}/bookmarks",
                        "/stats/bookmarks/top");
    }

    @Test
    void aBookmarksKey_isTheTablesLayout_itsItemsBookmarksInTenPartitionsByUser() {
        for (String user : List.of("u1", "alice", "user-8790")) {
            Bookmark bookmark = new Bookmark(user, "i1", null, Instant.EPOCH, Instant.EPOCH);
            assertThat(Bookmark.SCHEMA.key(bookmark)).isEqualTo(new Key("BOOKMARKS#i1#"
                    + Math.floorMod(user.hashCode(), 10), "USER#" + user));
            assertThat(Bookmark.SCHEMA.subject(bookmark)).isEqualTo(user + "/i1");
        }
    }
}
