package io.tally.domains.catalogue;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.SharedCounter;
import io.tally.core.TableSchema;
import io.tally.core.domain.DashboardSection.Each;
import io.tally.core.domain.DashboardSection.Rows;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import java.util.List;

/**
 * The learning catalogue (seed 003), declared once: catalogue items with their selector index, each user's items in
 * their states, and what the catalogue counts in the shared stats items; the index entries and the counts are views
 * ({@link CatalogueFigures}). Keys are in {@link CatalogueKeys}.
 */
public final class Catalogue extends DeclaredDomain {
    public static final EntityType CATALOGUE_ITEM = EntityType.base("CatalogueItem");
    /** The authoritative state of one catalogue item for one user. */
    public static final EntityType USER_ITEM = EntityType.base("UserItem");
    /** A user's list entry (assigned, in progress, completed, orphaned) kept in step with {@link #USER_ITEM}. */
    public static final EntityType USER_ITEM_ENTRY = EntityType.base("UserItemEntry");

    /** A user's stats: items completed (with a correct guess, live), and items per current state. */
    public static final SharedCounter USER_COMPLETED = SharedCounter.of(Users.USER_STATS, "completed");
    public static final SharedCounter USER_CORRECT_GUESSES = SharedCounter.of(Users.USER_STATS, "correctGuesses");
    public static final SharedCounter USER_LIVE_COMPLETED = SharedCounter.of(Users.USER_STATS, "liveCompleted");
    public static final SharedCounter USER_ASSIGNED = SharedCounter.of(Users.USER_STATS, "assigned");
    public static final SharedCounter USER_IN_PROGRESS = SharedCounter.of(Users.USER_STATS, "inProgress");
    public static final SharedCounter USER_ORPHANED = SharedCounter.of(Users.USER_STATS, "orphaned");

    public static final SharedCounter GLOBAL_ITEMS = SharedCounter.of(Users.GLOBAL_STATS, "items");
    public static final SharedCounter GLOBAL_COMPLETED = SharedCounter.of(Users.GLOBAL_STATS, "completed");

    /** One per catalogue item: its entry in the CycleSelector index. */
    public static final DerivedType SELECTOR_ENTRY = DerivedType.named("SelectorEntry")
            .key("ITEM#<itemId> / #SELECTOR#", CatalogueKeys::selectorEntry)
            .document(Entry.ITEM_ID, Entry.TITLE, Entry.SCORE)
            .indexKeys(TableSchema.SELECTOR, TableSchema.DATA)
            .build();

    /** Attribute names of {@link #SELECTOR_ENTRY}. */
    public static final class Entry {
        public static final String ITEM_ID = "itemId";
        public static final String TITLE = "title";
        public static final String SCORE = "score";

        private Entry() {
        }
    }

    /**
     * The catalogue's part of the dashboard: its totals, and a leaderboard a selector, the top five of each selector
     * the address names ({@code ?selectors=}).
     */
    private static final List<DashboardSection> DASHBOARD = List.of(
            DashboardSection.totals("/stats/global",
                    tile("Catalogue items", "global.items", "items"),
                    tile("Completed", "global.completed", "completed")),
            DashboardSection.tables("selectors", "Selector leaderboards", "/selectors/{selector}?limit=5",
                            Each.of("selector", "selectors", "back-catalogue", "global-cycle:5"),
                            Rows.of("items", "score", "{title} ({itemId})", "{itemId}")
                                    .figure("selector.{selector}.{itemId}").columns("Item", "Score"))
                    .hint("Other selectors: `/dashboard?selectors=back-catalogue,global-cycle:5`"));

    /**
     * Catalogue items can be looked up by id: what another domain (a review, say) refers to. A user's item progress
     * is the user's own data, and its event not for a public feed.
     */
    public Catalogue() {
        super(Declaration.of("catalogue")
                .requires(UsersDomain.NAME)
                .entityTypes(CATALOGUE_ITEM, USER_ITEM, USER_ITEM_ENTRY)
                .keyPatterns(CATALOGUE_ITEM, "ITEM#<itemId> / #METADATA#")
                .keyPatterns(USER_ITEM, "USER#<userId> / useritem#<itemId>")
                .keyPatterns(USER_ITEM_ENTRY, "USER#<userId> / item:<state>:<position>#<itemId>",
                        "USER#<userId> / item:in-progress")
                .shardSettings(CatalogueKeys.SELECTOR_SHARDS)
                .projects(TableSchema.CYCLE_SELECTOR_INDEX, Entry.ITEM_ID, Entry.TITLE,
                        Entry.SCORE)
                .views(CatalogueFigures.SELECTORS, CatalogueFigures.ITEMS, CatalogueFigures.USER_ITEMS)
                .sharedCounters(USER_COMPLETED, USER_CORRECT_GUESSES, USER_LIVE_COMPLETED, USER_ASSIGNED,
                        USER_IN_PROGRESS, USER_ORPHANED, GLOBAL_ITEMS, GLOBAL_COMPLETED)
                .lookup(CATALOGUE_ITEM, CatalogueKeys::catalogueItem)
                .announces(CatalogueEvents.ITEM_COMPLETED, UserItem.AUTHORITATIVE, UserItem::itemId,
                        CatalogueEvents.ItemCompleted::of)
                .resources(ItemRoutes.RESOURCE)
                .dashboard(DASHBOARD)
                .demoSeed(CatalogueDemo::seed)
                .workload(CatalogueWorkload::new));
    }

    /** Its stores over the table and the routes that use them; routes reach the table only through the stores. */
    @Override
    public void routes(Router router, RouteContext context) {
        ItemStore items = new ItemStore(context.dynamo(), context.table());
        new ItemRoutes(context, items).register(router);
        new UserItemRoutes(context, new UserItemStore(context.dynamo(), context.table(), items)).register(router);
        new SelectorRoutes(context).register(router);
    }
}
