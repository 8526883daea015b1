package io.tally.domains.catalogue;

import io.tally.core.TableSchema;
import io.tally.core.view.ProjectionView;
import io.tally.core.view.SharedCounts;

/**
 * The catalogue's figures, declared as views (in a class of their own: they read the items' and user items' schemas):
 * the items' entries in the CycleSelector index; the global {@code items}; a user's items per state, their completed
 * items guessed correctly and completed live, and the global {@code completed}. The read side of the counts is the
 * kernel's {@code /stats/users/{userId}} and {@code /stats/global}; that of the entries {@link SelectorRoutes}.
 */
final class CatalogueFigures {
    /**
     * A catalogue item's entry in the CycleSelector index ({@link Catalogue#SELECTOR_ENTRY}): its id, title and score,
     * in the partition of its selector (the back catalogue spread over {@code SELECTOR_SHARDS} partitions by item id,
     * {@link CatalogueKeys#selectorPartition}), ranged by score. Its revision is the one the writer stamps on every put
     * ({@link CatalogueItem#nextRevision}): above the previous one and at least its clock in microseconds, so that a
     * re-creation after a delete is above the deleted item's. An item written before revisions existed reads as 0, and
     * its entry is then ordered only by the shard watermarks.
     */
    static final ProjectionView<CatalogueItem, SelectorEntry> SELECTORS =
            ProjectionView.over(CatalogueItem.SCHEMA, SelectorEntry.class)
                    .type(Catalogue.SELECTOR_ENTRY, CatalogueItem::itemId)
                    .project(SelectorEntry::of)
                    .indexKey(TableSchema.SELECTOR, (item, shards) -> CatalogueKeys.selectorPartition(item.selector(),
                            item.itemId(), shards.count(CatalogueKeys.SELECTOR_SHARDS)))
                    .indexKey(TableSchema.DATA, (item, shards) -> item.score())
                    .revision(CatalogueItem::revision)
                    .build();

    static final SharedCounts<CatalogueItem> ITEMS = SharedCounts.over(CatalogueItem.SCHEMA)
            .global(Catalogue.GLOBAL_ITEMS)
            .build();

    /** Over the authoritative item alone ({@link UserItem#AUTHORITATIVE}): never its list entry. */
    static final SharedCounts<UserItem> USER_ITEMS = SharedCounts.over(UserItem.AUTHORITATIVE)
            .user(Catalogue.USER_ASSIGNED, UserItem::userId, item -> item.state() == ItemState.ASSIGNED)
            .user(Catalogue.USER_IN_PROGRESS, UserItem::userId, item -> item.state() == ItemState.IN_PROGRESS)
            .user(Catalogue.USER_COMPLETED, UserItem::userId, item -> item.state() == ItemState.COMPLETED)
            .user(Catalogue.USER_ORPHANED, UserItem::userId, item -> item.state() == ItemState.ORPHANED)
            // An absent flag counts as false.
            .user(Catalogue.USER_CORRECT_GUESSES, UserItem::userId, item -> item.state() == ItemState.COMPLETED
                    && Boolean.TRUE.equals(item.correct()))
            .user(Catalogue.USER_LIVE_COMPLETED, UserItem::userId, item -> item.state() == ItemState.COMPLETED
                    && Boolean.TRUE.equals(item.live()))
            .global(Catalogue.GLOBAL_COMPLETED, item -> item.state() == ItemState.COMPLETED)
            .build();

    private CatalogueFigures() {
    }
}
