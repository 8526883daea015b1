package io.tally.core.users;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.RouteContext;
import io.tally.core.domain.TableIndex;
import io.tally.core.http.Router;
import java.util.List;

/**
 * The shared kernel as a domain: users ({@code POST /users}, ...), the two items every domain counts in and their read
 * side ({@code GET /stats/users/{userId}}, {@code GET /stats/global}), and {@code UserStatsChanged}, announced for
 * every change that moves a user's stats, whichever domain's. Every other domain requires it.
 */
public final class UsersDomain extends DeclaredDomain {
    public static final String NAME = "users";

    /** The kernel's part of the dashboard: the first tile of the Totals card, which every domain adds its tiles to. */
    private static final List<DashboardSection> DASHBOARD = List.of(
            DashboardSection.totals("/stats/global", tile("Users", "global.users", "users")));

    /**
     * Tally's index of ranked lists ({@link io.tally.core.view.RankingView} and the domains' own lists): a partition per
     * list (and shard), ranked by a number. Each domain whose entries it holds adds what its lists render to the
     * projection ({@code Declaration.projects}).
     */
    public static final TableIndex RANKINGS_INDEX = TableIndex.global(TableSchema.CYCLE_SELECTOR_INDEX,
            TableSchema.SELECTOR, TableSchema.DATA).numericRange().including(TableSchema.ENTITY_TYPE).described(
            "Ranked lists: a partition per list (and shard), ranked by a number; every domain's ranking views and"
                    + " selector lists, each domain adding what its lists render to the projection. Not the stream"
                    + " engine's bookkeeping (watermarks, srcRev), which changes with every derived write and would"
                    + " cost the index a write each time (docs/table-design.md, \"Index costs\").");

    public UsersDomain() {
        super(Declaration.of(NAME)
                .entityTypes(Users.USER)
                .keyPatterns(Users.USER, "USER#<userId> / #METADATA#<userId>")
                .derivedTypes(Users.USER_STATS, Users.GLOBAL_STATS)
                .sharedCounters(Users.GLOBAL_USERS)
                .views(UserFigures.USERS)
                .lookup(Users.USER, Users::key)
                .indexes(RANKINGS_INDEX)
                .dashboard(DASHBOARD)
                .demoSeed(UsersDemo::seed)
                .workload(UsersWorkload::new));
    }

    @Override
    public void routes(Router router, RouteContext context) {
        UserStore users = new UserStore(context.dynamo(), context.table());
        new UserRoutes(context, users).register(router);
        new StatsRoutes(new StatsStore(context.dynamo(), context.table(), context.registry()), context.shards().global(),
                context.registry()).register(router);
    }

    @Override
    public List<Derivation> derivations(ShardSettings shards) {
        return List.of(new UserDerivation());
    }

    @Override
    public List<CounterEvents> counterEvents(DomainRegistry registry) {
        return List.of(new UserStatsEvents(registry.counters(Users.USER_STATS)));
    }
}
