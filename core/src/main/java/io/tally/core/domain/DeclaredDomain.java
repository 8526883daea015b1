package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSetting;
import io.tally.core.SharedCounter;
import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import io.tally.core.events.EventType;
import io.tally.core.view.View;
import io.tally.core.workload.WorkloadContext;
import io.tally.core.workload.WorkloadPart;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Domain} whose facts are a {@link Declaration} given to its constructor; what it does over the table (its
 * routes and derivations) it adds by overriding those methods. The usual way to write a domain:
 *
 * <pre>{@code
 * public final class Reviews extends DeclaredDomain {
 *     public Reviews() {
 *         super(Declaration.of("reviews").requires("catalogue").entityTypes(REVIEW) ...);
 *     }
 *
 *     @Override
 *     public void routes(Router router, RouteContext context) { ... }
 *
 *     @Override
 *     public List<Derivation> derivations(ShardSettings shards) { ... }
 * }
 * }</pre>
 */
public abstract class DeclaredDomain implements Domain {
    private final Declaration declaration;

    protected DeclaredDomain(Declaration declaration) {
        this.declaration = Objects.requireNonNull(declaration, "declaration");
    }

    @Override
    public final String name() {
        return declaration.name();
    }

    @Override
    public final List<String> requires() {
        return declaration.requires();
    }

    @Override
    public final List<EntityType> entityTypes() {
        return declaration.entityTypes();
    }

    @Override
    public final List<DerivedType> derivedTypes() {
        return declaration.derivedTypes();
    }

    @Override
    public final List<View<?>> views() {
        return declaration.views();
    }

    @Override
    public final List<EntityResource<?>> resources() {
        return declaration.resources();
    }

    @Override
    public final List<io.tally.core.derive.Announcement<?>> announcements() {
        return declaration.announcements();
    }

    @Override
    public final List<io.tally.core.derive.Removal<?, ?>> removals() {
        return declaration.removals();
    }

    @Override
    public final List<KeyPattern> keyPatterns() {
        return declaration.keyPatterns();
    }

    @Override
    public final List<ShardSetting> shardSettings() {
        return declaration.shardSettings();
    }

    @Override
    public final List<TableIndex> indexes() {
        return declaration.indexes();
    }

    @Override
    public final List<TableIndex.Projected> projections() {
        return declaration.projections();
    }

    @Override
    public final List<SharedCounter> sharedCounters() {
        return declaration.sharedCounters();
    }

    @Override
    public final List<Lookup> lookups() {
        return declaration.lookups();
    }

    @Override
    public final List<EventType> events() {
        return declaration.events();
    }

    @Override
    public final List<DashboardSection> dashboard() {
        return declaration.dashboard();
    }

    @Override
    public final void demoSeed(DemoApi api) throws IOException, InterruptedException {
        declaration.demoSeed().seed(api);
    }

    @Override
    public final Optional<DemoLoad> demoLoad() {
        return Optional.ofNullable(declaration.demoLoad()).map(load -> load.get());
    }

    @Override
    public final Optional<WorkloadPart> workload(WorkloadContext context) {
        return Optional.ofNullable(declaration.workload()).map(part -> part.apply(context));
    }

    @Override
    public String toString() {
        return "domain " + name();
    }
}
