package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.Derivation;
import io.tally.core.events.EventType;
import io.tally.core.http.Router;
import io.tally.core.view.View;
import io.tally.core.workload.WorkloadContext;
import io.tally.core.workload.WorkloadPart;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * One domain of the application, declared once: its entities, its derived types, the counters it adds to the shared
 * items, its routes with their access rules, its derivations and the cascades they ask for, its dashboard sections. The
 * writer function, the stream processor, the rebuilder, the local runner, the dashboard page and the tests all take a
 * domain from here; none of them names a domain.
 *
 * <p>Domains are found with {@link java.util.ServiceLoader}: a jar lists its domains in
 * {@code META-INF/services/io.tally.core.domain.Domain}, one class name a line (a public class with a public
 * no-argument constructor). {@link DomainRegistry} puts them together and checks them: names and types declared once, a
 * shared counter once, every domain a domain requires present.
 *
 * <p>Every method but {@link #name} has a default of nothing, so a domain declares only what it has. The usual way to
 * write one is {@link DeclaredDomain}: its facts as a {@link Declaration}, its routes and derivations as methods. A
 * cascade its derivations ask for carries its own removal ({@link io.tally.core.derive.Cascade#removeWith}).
 */
public interface Domain {
    /** Its name, a lower-case word, e.g. {@code blog}. */
    String name();

    /**
     * The domains it builds on (their entities, lookups or shared items), by name; they come before it in the
     * registry, so also before it in the shared items' read side.
     */
    default List<String> requires() {
        return List.of();
    }

    /** The entity types of the base items its writers write. */
    default List<EntityType> entityTypes() {
        return List.of();
    }

    /**
     * The derived item types it declares (for a shared one, its counters come from every domain's
     * {@link #sharedCounters}).
     */
    default List<DerivedType> derivedTypes() {
        return List.of();
    }

    /** The key patterns of this domain's base items, each held against every other type's ({@link KeyPattern}). */
    default List<KeyPattern> keyPatterns() {
        return List.of();
    }

    /** The shard counts of what this domain spreads over partitions or items ({@link ShardSetting}). */
    default List<ShardSetting> shardSettings() {
        return List.of();
    }

    /** The table's secondary indexes this domain reads ({@link TableIndex}): the table and the template are made from them. */
    default List<TableIndex> indexes() {
        return List.of();
    }

    /** Attributes this domain adds to the projection of an index another domain declares. */
    default List<TableIndex.Projected> projections() {
        return List.of();
    }

    /** The counters it adds to shared derived items, in the order the read side shows them. */
    default List<SharedCounter> sharedCounters() {
        return List.of();
    }

    /** The entities other domains may look up by id. */
    default List<Lookup> lookups() {
        return List.of();
    }

    /** Builds its stores over the table and adds its routes, each with its access rule. */
    default void routes(Router router, RouteContext context) {
    }

    /**
     * Its entities at paths, their {@code GET}, {@code PUT} and {@code DELETE} routes declared as data
     * ({@code Declaration.resource}): added before {@link #routes}, in the order declared.
     */
    default List<EntityResource<?>> resources() {
        return List.of();
    }

    /** Adds the routes of {@link #resources}; the writer calls it before {@link #routes}. */
    static void registerResources(Domain domain, Router router, RouteContext context) {
        domain.resources().forEach(resource -> resource.register(router, context));
    }

    /**
     * Its figures declared as data ({@link View}): their derived types must be among {@link #derivedTypes}
     * ({@code Declaration.views} adds them; the registry checks), their derivations join this domain's own
     * ({@link DomainRegistry#derivations}), and their read routes are added after {@link #routes}, unless this domain
     * declared a route of the same path itself.
     */
    default List<View<?>> views() {
        return List.of();
    }

    /**
     * The events every change of one of its entity types announces, declared as data ({@code Declaration.announces}):
     * their derivations join this domain's own and its views' ({@link io.tally.core.derive.CombinedDerivation}).
     */
    default List<io.tally.core.derive.Announcement<?>> announcements() {
        return List.of();
    }

    /**
     * What goes when its owner is removed, declared as data ({@code Declaration.removes}): the cascades' derivations
     * join this domain's own and its views' ({@link io.tally.core.derive.CombinedDerivation}).
     */
    default List<io.tally.core.derive.Removal<?, ?>> removals() {
        return List.of();
    }

    /** Its derivations, one per base entity type that derives, placed with the deployment's shard counts. */
    default List<Derivation> derivations(ShardSettings shards) {
        return List.of();
    }

    /**
     * Events that follow from counter deltas whichever domain's derivation moved them, for the counters this domain
     * owns (a user's stats changed, say); announced after each change's own events.
     */
    default List<CounterEvents> counterEvents(DomainRegistry registry) {
        return List.of();
    }

    /** The kinds of domain events its derivations announce, as {@code docs/events.md} documents them. */
    default List<EventType> events() {
        return List.of();
    }


    /** Its part of the test kit's random workload over this context, if it has one. */
    default Optional<WorkloadPart> workload(WorkloadContext context) {
        return Optional.empty();
    }

    /**
     * Its part of the seed scenario {@code tally-local --demo} loads, written through the API in the registry's order
     * (so a domain finds what the domains it requires wrote). Every write names its ids, so that the scenario is loaded
     * once: on data that holds it already a write is refused, and the demo stops there instead of counting twice.
     */
    default void demoSeed(DemoApi api) throws IOException, InterruptedException {
    }

    /** A new instance of its part of the demo's steady synthetic load, if it has one. */
    default Optional<DemoLoad> demoLoad() {
        return Optional.empty();
    }

    /**
     * Its sections of the dashboard, in the order the page shows them (after the sections of the domains before it in
     * the registry): the tiles it adds to the Totals card, its charts and tables, each with the read route it reads.
     */
    default List<DashboardSection> dashboard() {
        return List.of();
    }
}
