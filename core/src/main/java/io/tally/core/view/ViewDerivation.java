package io.tally.core.view;

import io.tally.core.ItemSchema;
import io.tally.core.ShardSettings;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import java.util.List;

/**
 * The derivation the views of one entity type compile to: what an entity in a state contributes is the sum of what it
 * contributes to each view. Events, cascades and documents are the domain's own derivation's
 * ({@link io.tally.core.derive.CombinedDerivation}).
 */
final class ViewDerivation<T extends Record> extends EntityDerivation<T> {
    private final List<View<T>> views;
    private final ShardSettings shards;

    ViewDerivation(ItemSchema<T> schema, List<View<T>> views, ShardSettings shards) {
        super(schema.entityType(), schema::fromItem);
        this.views = List.copyOf(views);
        this.shards = shards;
    }

    @Override
    protected Contribution contribution(T entity) {
        Contribution.Builder contribution = Contribution.builder();
        views.forEach(view -> view.contribute(entity, shards, contribution));
        return contribution.build();
    }

    /**
     * The entity's revision, for the documents of its projection (at most one a type: {@link Views}); the other views'
     * documents are constant and need none.
     */
    @Override
    @SuppressWarnings("unchecked")
    protected long revision(T entity) {
        for (View<T> view : views) {
            if (view instanceof ProjectionView<?, ?> projection) {
                return ((ProjectionView<T, ?>) projection).revision(entity);
            }
        }
        return super.revision(entity);
    }

    @Override
    public String toString() {
        return "views of " + entityType().attributeValue() + ": " + views;
    }
}
