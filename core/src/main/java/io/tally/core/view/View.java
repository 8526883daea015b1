package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.ShardSettings;
import io.tally.core.derive.Contribution;
import java.util.List;

/**
 * A figure of a domain declared as data: what a domain lists in {@code Declaration.views}. Each shape compiles to the
 * derived types that keep its figures, its part of the derivation of the entity type it counts, and its read route;
 * sealed, because Tally compiles each shape ({@link CounterView}, with its time buckets, {@link RankingView} and
 * {@link ProjectionView} so far), and a domain jar built against one shape keeps working when others are added.
 *
 * @param <T> the entity the view counts
 */
public sealed interface View<T extends Record> permits CounterView, RankingView, ProjectionView, SharedCounts {
    /** How the entities the view counts are read: their record and entity type. */
    ItemSchema<T> schema();

    /** The entity type whose changes the view counts. */
    default EntityType source() {
        return schema().entityType();
    }

    /** The derived types the view keeps its figures in. */
    List<DerivedType> types();

    /** Adds what the entity, in this state, contributes to the view's figures; throws for an entity it cannot count. */
    void contribute(T entity, Contribution.Builder into);

    /**
     * What the entity contributes with the functions' shard counts (those {@code Domain.derivations} is given): the
     * same as {@link #contribute(Record, Contribution.Builder)} for a view none of whose keys depends on them.
     */
    default void contribute(T entity, ShardSettings shards, Contribution.Builder into) {
        contribute(entity, into);
    }
}
