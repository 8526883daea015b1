package io.tally.core.users;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.demo.DemoApi;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.Lookup;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import java.io.IOException;
import io.tally.core.workload.WorkloadContext;
import io.tally.core.workload.WorkloadPart;
import java.util.List;
import java.util.Optional;

/**
 * The shared kernel as a domain: users ({@code POST /users}, ...), the two items every domain counts in and their read
 * side ({@code GET /stats/users/{userId}}, {@code GET /stats/global}), and {@code UserStatsChanged}, announced for
 * every change that moves a user's stats, whichever domain's. Every other domain requires it.
 */
public final class UsersDomain implements Domain {
    public static final String NAME = "users";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<EntityType> entityTypes() {
        return List.of(Users.USER);
    }

    @Override
    public List<DerivedType> derivedTypes() {
        return List.of(Users.USER_STATS, Users.GLOBAL_STATS);
    }

    @Override
    public List<SharedCounter> sharedCounters() {
        return List.of(Users.GLOBAL_USERS);
    }

    @Override
    public List<Lookup> lookups() {
        return List.of(new Lookup(Users.USER, Users::key));
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

    @Override
    public Optional<WorkloadPart> workload(WorkloadContext context) {
        return Optional.of(new UsersWorkload(context));
    }

    @Override
    public void demoSeed(DemoApi api) throws IOException, InterruptedException {
        UsersDemo.seed(api);
    }

    @Override
    public List<io.tally.core.domain.DashboardSection> dashboard() {
        return UsersDashboard.SECTIONS;
    }
}
