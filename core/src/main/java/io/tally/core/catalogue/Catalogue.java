package io.tally.core.catalogue;

import io.tally.core.DerivedType;
import io.tally.core.DomainSchema;
import io.tally.core.EntityType;
import io.tally.core.TableSchema;
import java.util.List;

/**
 * The learning catalogue's declarations (seed 003): its entity types, its derived type, and what it counts in the
 * shared stats items. Keys are in {@link CatalogueKeys}.
 */
public final class Catalogue {
    public static final EntityType CATALOGUE_ITEM = EntityType.base("CatalogueItem");
    /** The authoritative state of one catalogue item for one user. */
    public static final EntityType USER_ITEM = EntityType.base("UserItem");
    /** A user's list entry (assigned, in progress, completed, orphaned) kept in step with {@link #USER_ITEM}. */
    public static final EntityType USER_ITEM_ENTRY = EntityType.base("UserItemEntry");

    /** A user's stats: items completed (with a correct guess, live), and items per current state. */
    public static final String USER_COMPLETED = "completed";
    public static final String USER_CORRECT_GUESSES = "correctGuesses";
    public static final String USER_LIVE_COMPLETED = "liveCompleted";
    public static final String USER_ASSIGNED = "assigned";
    public static final String USER_IN_PROGRESS = "inProgress";
    public static final String USER_ORPHANED = "orphaned";

    public static final String GLOBAL_ITEMS = "items";
    public static final String GLOBAL_COMPLETED = "completed";

    /** One per catalogue item: its entry in the CycleSelector index. */
    public static final DerivedType SELECTOR_ENTRY = DerivedType.named("SelectorEntry")
            .key("ITEM#<itemId> / #SELECTOR#", CatalogueKeys::selectorEntry)
            .document(Entry.ITEM_ID, Entry.TITLE, Entry.SCORE)
            .indexKeys(TableSchema.SELECTOR, TableSchema.DATA)
            .build();

    public static final DomainSchema SCHEMA = new DomainSchema("catalogue",
            List.of(CATALOGUE_ITEM, USER_ITEM, USER_ITEM_ENTRY),
            List.of(SELECTOR_ENTRY),
            List.of(USER_COMPLETED, USER_CORRECT_GUESSES, USER_LIVE_COMPLETED, USER_ASSIGNED, USER_IN_PROGRESS,
                    USER_ORPHANED),
            List.of(GLOBAL_ITEMS, GLOBAL_COMPLETED));

    /** Attribute names of {@link #SELECTOR_ENTRY}. */
    public static final class Entry {
        public static final String ITEM_ID = "itemId";
        public static final String TITLE = "title";
        public static final String SCORE = "score";

        private Entry() {
        }
    }

    private Catalogue() {
    }
}
