package example.bookmarks;

import io.tally.core.http.Access;
import io.tally.core.view.Bucket;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;
import io.tally.core.view.RankingView;
import java.util.List;

/** The figures, declared as views: Tally keeps them exactly once and serves their routes. */
final class BookmarkFigures {
    public record ItemBookmarks(String itemId, long bookmarks) {
    }

    public record UserBookmarks(String userId, long bookmarks) {
    }

    public record TopBookmarked(String month, List<ItemBookmarks> items) {
    }

    static final CounterView<Bookmark, ItemBookmarks> PER_ITEM = CounterView.over(Bookmark.SCHEMA, ItemBookmarks.class)
            .groupBy(ItemBookmarks::itemId, Bookmark::itemId).count(ItemBookmarks::bookmarks)
            .read("/stats/items/{itemId}/bookmarks", Access.READ_SIDE, Existence.counted("item")).build();

    /** Shared: a user's bookmarks live in every bookmarked item's partitions. */
    static final CounterView<Bookmark, UserBookmarks> PER_USER = CounterView.over(Bookmark.SCHEMA, UserBookmarks.class)
            .groupBy(UserBookmarks::userId, Bookmark::userId).count(UserBookmarks::bookmarks).shared()
            .read("/stats/users/{userId}/bookmarks", Access.READ_SIDE, Existence.counted("user")).build();

    static final RankingView<Bookmark, TopBookmarked> TOP = RankingView.over(Bookmark.SCHEMA, TopBookmarked.class)
            .groupBy(ItemBookmarks::itemId, Bookmark::itemId).count(ItemBookmarks::bookmarks)
            .bucket(TopBookmarked::month, Bucket.MONTH, Bookmark::createdAt)
            .read("/stats/bookmarks/top", Access.READ_SIDE, "The month's most bookmarked items").build();

    private BookmarkFigures() {
    }
}
