package io.tally.stream.fault;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.view.Bucket;
import io.tally.core.view.CounterView;
import io.tally.core.view.ProjectionView;
import io.tally.core.view.RankingView;
import io.tally.core.workload.EntityWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A domain of views only, on the stream processor's test class path (its service file), so that the fault test's
 * workload counts views under every fault: a count, a sum and a mean per item (kept whole: an item's marks live in
 * four partitions), a count per user and day (shared: a user's marks live in every item's partitions), a weight per
 * user and item (a group of two fields, with a count per hidden or shown; shared), a ranking of
 * items per month by weight, of the marks not hidden, and a projection of each mark not hidden under its user and
 * month (a mark written again with another instant moves it). Its workload part is not in the default mix: the fault
 * test adds it ({@code with("viewmarks")}).
 */
public final class ViewMarks extends DeclaredDomain {
    static final EntityType MARK = EntityType.base("ViewMark");

    /**
     * A user's mark of an item, kept under the item in one of four partitions by user; {@code version} grows with every
     * write (the workload's clock, which ticks between writes).
     */
    public record Mark(String userId, String itemId, long weight, Instant createdAt, boolean hidden, long version) {
        static final ItemSchema<Mark> SCHEMA = ItemSchema.of(Mark.class, MARK, mark -> new Key("VMARKS#"
                + mark.itemId() + "#" + Math.floorMod(mark.userId().hashCode(), 4), "USER#" + mark.userId())).build();
    }

    public record ItemMarks(String itemId, long marks, long weight, Double meanWeight) {
    }

    public record UserDay(String userId, String day, long marks) {
    }

    public record ItemWeight(String itemId, long weight) {
    }

    public record UserItem(String userId, String itemId, long marks, long weight, java.util.Map<String, Long> seen) {
    }

    public record TopWeighed(String month, List<ItemWeight> items) {
    }

    public record MarkCard(String itemId, long weight) {
    }

    /** The views, in a class of their own: they read {@link Mark#SCHEMA}. */
    static final class Figures {
        static final CounterView<Mark, ItemMarks> PER_ITEM = CounterView.over(Mark.SCHEMA, ItemMarks.class)
                .named("ViewMarkItem").groupBy(ItemMarks::itemId, Mark::itemId).count(ItemMarks::marks)
                .sum(ItemMarks::weight, Mark::weight).average(ItemMarks::meanWeight, Mark::weight, "weights").build();
        static final CounterView<Mark, UserDay> PER_USER_DAY = CounterView.over(Mark.SCHEMA, UserDay.class)
                .named("ViewMarkUserDay").groupBy(UserDay::userId, Mark::userId)
                .bucket(UserDay::day, Bucket.DAY, Mark::createdAt).count(UserDay::marks).shared().build();
        static final CounterView<Mark, UserItem> PER_USER_ITEM = CounterView.over(Mark.SCHEMA, UserItem.class)
                .named("ViewMarkUserItem").groupBy(UserItem::userId, Mark::userId).groupBy(UserItem::itemId,
                        Mark::itemId).count(UserItem::marks).sum(UserItem::weight, Mark::weight)
                .countPer(UserItem::seen, mark -> mark.hidden() ? "hidden" : "shown", "seen:").shared().build();
        static final RankingView<Mark, TopWeighed> TOP = RankingView.over(Mark.SCHEMA, TopWeighed.class)
                .named("ViewMarkTop").groupBy(ItemWeight::itemId, Mark::itemId).sum(ItemWeight::weight, Mark::weight)
                .bucket(TopWeighed::month, Bucket.MONTH, Mark::createdAt).where(mark -> !mark.hidden()).shards(3)
                .build();
        static final ProjectionView<Mark, MarkCard> CARDS = ProjectionView.over(Mark.SCHEMA, MarkCard.class)
                .named("ViewMarkCard").key("VMARKCARDS#<userId> / <yyyy-MM of createdAt>#<itemId>", mark -> new Key(
                        "VMARKCARDS#" + mark.userId(), Bucket.MONTH.of(mark.createdAt()) + "#" + mark.itemId()))
                .project(mark -> new MarkCard(mark.itemId(), mark.weight()))
                .where(mark -> !mark.hidden()).revision(Mark::version).build();

        private Figures() {
        }
    }

    public ViewMarks() {
        super(Declaration.of("viewmarks").entityTypes(MARK)
                .views(Figures.PER_ITEM, Figures.PER_USER_DAY, Figures.PER_USER_ITEM, Figures.TOP, Figures.CARDS)
                .workload(context -> new EntityWorkload<>(context, "vm", 10, false, Mark.SCHEMA, workload -> new Mark(
                        workload.user(), workload.pickUniformly(List.of("m1", "m2", "m3", "m4", "m5", "m6")),
                        1 + workload.random().nextInt(9), workload.now().minus(Duration.ofHours(
                        workload.random().nextInt(24 * 70))), workload.random().nextInt(4) == 0,
                        workload.now().toEpochMilli()))));
    }
}
