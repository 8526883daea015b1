package io.tally.domains.catalogue;

import io.tally.core.view.SharedCounts;

/**
 * The catalogue's counts in the shared items, declared as views (in a class of their own: they read the items' and
 * user items' schemas): the global {@code items}; a user's items per state, their completed items guessed correctly
 * and completed live, and the global {@code completed}. The read side is the kernel's {@code /stats/users/{userId}}
 * and {@code /stats/global}.
 */
final class CatalogueFigures {
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
