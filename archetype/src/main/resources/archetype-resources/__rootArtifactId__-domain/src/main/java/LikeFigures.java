package ${package};

import io.tally.core.http.Access;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;

/** The figures, declared as a view: Tally keeps them exactly once from the stream and serves their route. */
final class LikeFigures {
    /** The answer of {@code GET /stats/items/{itemId}/likes}. */
    public record ItemLikes(String itemId, long likes) {
    }

    /** An item's likes: created, moved and deleted with the likes themselves. */
    static final CounterView<Like, ItemLikes> PER_ITEM = CounterView.over(Like.SCHEMA, ItemLikes.class)
            .groupBy(ItemLikes::itemId, Like::itemId).count(ItemLikes::likes)
            .read("/stats/items/{itemId}/likes", Access.READ_SIDE, Existence.counted("item")).build();

    private LikeFigures() {
    }
}
