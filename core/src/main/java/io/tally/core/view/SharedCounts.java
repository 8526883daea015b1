package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.ItemSchema;
import io.tally.core.Ids;
import io.tally.core.SharedCounter;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A domain's counts in the items every domain shares, declared as data: the entities of one type counted in a user's
 * stats ({@code USER#<userId> / #STATS#}) or in the global totals, each count a {@link SharedCounter} the domain
 * declares ({@code Declaration.sharedCounters}), with its own filter. The read side is the kernel's
 * ({@code GET /stats/users/{userId}}, {@code GET /stats/global}), which shows every domain's shared counters. The same
 * entities may also count on an item of the domain's own ({@link Builder#on}: a post's comments on its copy in the
 * status index), whose read is the domain's.
 *
 * <pre>{@code
 * static final SharedCounts<Post> COUNTS = SharedCounts.over(Post.SCHEMA)
 *         .user(USER_POSTS, Post::userId, post -> post.status() != PostStatus.DELETED)
 *         .global(GLOBAL_POSTS_CREATED, post -> post.status() == PostStatus.CREATED)
 *         .build();
 * }</pre>
 *
 * <p>Exactly once as every view: an entity in a state contributes 1 to each count whose filter admits it, and a change
 * is the difference of two states (a post soft-deleted leaves its user's count and moves between the global counts).
 * A global count is added to the slot of the stream shard the record came from, as every global counter is.
 *
 * @param <T> the entity counted
 */
public final class SharedCounts<T extends Record> implements View<T> {
    private final ItemSchema<T> source;
    private final List<Count<T>> counts;
    private final List<On<T>> on;

    /** One count: the counter, the user it is kept for (null: the global totals) and the filter. */
    private record Count<T>(SharedCounter counter, Function<T, String> user, Predicate<T> where) {
    }

    /** One count on an item of the domain's own: its type, the entity's subject there, the counter. */
    private record On<T>(DerivedType type, Function<T, String> subject, String attribute) {
    }

    private SharedCounts(ItemSchema<T> source, List<Count<T>> counts, List<On<T>> on) {
        this.source = source;
        this.counts = List.copyOf(counts);
        this.on = List.copyOf(on);
    }

    /** Counts of the entities {@code source} reads. */
    public static <T extends Record> Builder<T> over(ItemSchema<T> source) {
        return new Builder<>(source);
    }

    @Override
    public ItemSchema<T> schema() {
        return source;
    }

    /** None of its own: the shared items' types are the users kernel's. */
    @Override
    public List<DerivedType> types() {
        return List.of();
    }

    /** The shared counters it counts in, for the registry's check that its domain declares them. */
    public List<SharedCounter> counters() {
        return counts.stream().map(Count::counter).toList();
    }

    @Override
    public void contribute(T entity, Contribution.Builder into) {
        for (On<T> item : on) {
            into.count(item.type(), item.subject().apply(entity), item.attribute(), 1);
        }
        for (Count<T> count : counts) {
            if (!count.where().test(entity)) {
                continue;
            }
            if (count.user() == null) {
                // Slot 0: the engine adds the change to the slot of the record's stream shard (Derivations.place).
                DerivedType global = count.counter().type();
                into.count(new CounterRef(global.slotKey(0), global, count.counter().attribute()), 1);
            } else {
                String userId = count.user().apply(entity);
                if (!Ids.isValid(userId)) {
                    throw new IllegalArgumentException(source.entityType().attributeValue() + ": the user of "
                            + count.counter().attribute() + " is not a valid id: "
                            + (userId == null ? "null" : "'" + userId + "'"));
                }
                into.count(CounterRef.of(count.counter().type(), userId, count.counter().attribute()), 1);
            }
        }
    }

    @Override
    public String toString() {
        return "shared counts of " + source.entityType().attributeValue() + ": "
                + counters().stream().map(SharedCounter::attribute).toList()
                + (on.isEmpty() ? "" : " and on " + on.stream().map(item -> item.type().name() + "."
                        + item.attribute()).toList());
    }

    /** Declares {@link SharedCounts}. */
    public static final class Builder<T extends Record> {
        private final ItemSchema<T> source;
        private final List<Count<T>> counts = new ArrayList<>();
        private final List<On<T>> on = new ArrayList<>();

        private Builder(ItemSchema<T> source) {
            this.source = Objects.requireNonNull(source, "the entities' schema is null: declare the counts in a class"
                    + " of their own, not in one the entity's class initialises from");
        }

        /** Counts each entity the filter admits in its user's stats, {@code counter} of {@code UserStats}. */
        public Builder<T> user(SharedCounter counter, Function<T, String> user, Predicate<T> where) {
            return add(new Count<>(counter, Objects.requireNonNull(user, "user"), where), false);
        }

        /** Counts each entity in its user's stats. */
        public Builder<T> user(SharedCounter counter, Function<T, String> user) {
            return user(counter, user, entity -> true);
        }

        /** Counts each entity the filter admits in the global totals, {@code counter} of {@code GlobalStats}. */
        public Builder<T> global(SharedCounter counter, Predicate<T> where) {
            return add(new Count<>(counter, null, where), true);
        }

        /** Counts each entity in the global totals. */
        public Builder<T> global(SharedCounter counter) {
            return global(counter, entity -> true);
        }

        /**
         * Counts each entity on the item of its {@code subject} of a type the domain declares, in the counter
         * {@code attribute} of that type ({@code on(POST_PROJECTION, Comment::postId, "comments")}).
         */
        public Builder<T> on(DerivedType type, Function<T, String> subject, String attribute) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(subject, "subject");
            if (!type.counters().contains(attribute) || type.isSlotted() || type.isShared()) {
                throw new IllegalArgumentException("'" + attribute + "' is no counter of an item of " + type.name()
                        + " of one subject");
            }
            if (on.stream().anyMatch(other -> other.type().equals(type) && other.attribute().equals(attribute))) {
                throw new IllegalArgumentException("'" + attribute + "' of " + type.name() + " is counted twice");
            }
            on.add(new On<>(type, subject, attribute));
            return this;
        }

        /** @param global whether the counter is one of the global totals (a slotted type), not of a user's stats */
        private Builder<T> add(Count<T> count, boolean global) {
            Objects.requireNonNull(count.counter(), "counter");
            Objects.requireNonNull(count.where(), "where");
            if (count.counter().type().isSlotted() != global) {
                throw new IllegalArgumentException("'" + count.counter().attribute() + "' is a counter of "
                        + count.counter().type() + ", not of " + (global ? "the global totals" : "a user's stats"));
            }
            if (counts.stream().anyMatch(other -> other.counter().equals(count.counter()))) {
                throw new IllegalArgumentException("'" + count.counter().attribute() + "' is counted twice");
            }
            counts.add(count);
            return this;
        }

        public SharedCounts<T> build() {
            if (counts.isEmpty() && on.isEmpty()) {
                throw new IllegalStateException("shared counts of " + source.entityType().attributeValue()
                        + " count something");
            }
            return new SharedCounts<>(source, counts, on);
        }
    }
}
