package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.ShardSetting;
import io.tally.core.SharedCounter;
import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import io.tally.core.events.EventType;
import io.tally.core.view.View;
import io.tally.core.view.Views;
import io.tally.core.workload.WorkloadContext;
import io.tally.core.workload.WorkloadPart;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The facts of a {@link Domain}, written once as data and handed to {@link DeclaredDomain}'s constructor: its name, the
 * domains it builds on, its entity and derived types, the counters it adds to shared items, what it lets others look
 * up, the events it announces, its dashboard sections, and the factories of its demo and workload parts. Each method
 * adds to what was declared before, in order (the order the registry, {@code docs/events.md} and the read side
 * show); a declaration is complete once its domain is constructed.
 *
 * <pre>{@code
 * public Reviews() {
 *     super(Declaration.of("reviews")
 *             .requires("catalogue")
 *             .entityTypes(REVIEW)
 *             .derivedTypes(REVIEW_STATS)
 *             .events(ReviewDerivation.REVIEW_CHANGED)
 *             .workload(ReviewsWorkload::new));
 * }
 * }</pre>
 */
public final class Declaration {
    /** Writes a domain's part of the demo's seed scenario through the API (see {@link Domain#demoSeed}). */
    @FunctionalInterface
    public interface DemoSeed {
        void seed(DemoApi api) throws IOException, InterruptedException;
    }

    private final String name;
    private final List<String> requires = new ArrayList<>();
    private final List<EntityType> entityTypes = new ArrayList<>();
    private final List<DerivedType> derivedTypes = new ArrayList<>();
    private final List<View<?>> views = new ArrayList<>();
    private final List<EntityResource<?>> resources = new ArrayList<>();
    private final List<io.tally.core.derive.Announcement<?>> announcements = new ArrayList<>();
    private final List<io.tally.core.derive.Removal<?, ?>> removals = new ArrayList<>();
    private final List<SharedCounter> sharedCounters = new ArrayList<>();
    private final List<TableIndex> indexes = new ArrayList<>();
    private final List<ShardSetting> shardSettings = new ArrayList<>();
    private final List<KeyPattern> keyPatterns = new ArrayList<>();
    private final List<TableIndex.Projected> projections = new ArrayList<>();
    private final List<Lookup> lookups = new ArrayList<>();
    private final List<EventType> events = new ArrayList<>();
    private final List<DashboardSection> dashboard = new ArrayList<>();
    private DemoSeed demoSeed = api -> {
    };
    private Supplier<? extends DemoLoad> demoLoad;
    private Function<WorkloadContext, ? extends WorkloadPart> workload;

    private Declaration(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The declaration of the domain with this name (a lower-case word, e.g. {@code blog}; the registry checks it). */
    public static Declaration of(String name) {
        return new Declaration(name);
    }

    /** Domains it builds on, by name ({@link Domain#requires}). */
    public Declaration requires(String... domains) {
        return add(requires, domains);
    }

    /** Entity types of the base items its writers write ({@link Domain#entityTypes}). */
    public Declaration entityTypes(EntityType... types) {
        return add(entityTypes, types);
    }

    /**
     * Its figures declared as data ({@link Domain#views}); their derived types join {@link #derivedTypes}, in the
     * views' order.
     */
    public Declaration views(View<?>... declared) {
        add(views, declared);
        return add(derivedTypes, Views.types(List.of(declared)).toArray(DerivedType[]::new));
    }

    /** Entities at paths, with their generated routes ({@link Domain#resources}), in the order given. */
    public Declaration resources(EntityResource<?>... declared) {
        return add(resources, declared);
    }

    /**
     * An event every change of one of its entity types announces ({@link io.tally.core.derive.Announcement}): the event
     * type, which it also declares ({@link #events}), the entity's schema, the event's subject (e.g.
     * {@code userId/itemId}) and the detail of a change.
     */
    public <T extends Record> Declaration announces(EventType type, io.tally.core.ItemSchema<T> schema,
                                                    Function<T, String> subject,
                                                    io.tally.core.derive.Announcement.Detail<T> detail) {
        announcements.add(new io.tally.core.derive.Announcement<>(type, schema, subject, detail));
        return events(type);
    }

    /**
     * {@link #announces(EventType, io.tally.core.ItemSchema, Function, io.tally.core.derive.Announcement.Detail)} with
     * the event's subject the ids the entity's key is made of ({@code ItemSchema.subject}: {@code userId/itemId}), for
     * a schema keyed by a pattern.
     */
    public <T extends Record> Declaration announces(EventType type, io.tally.core.ItemSchema<T> schema,
                                                    io.tally.core.derive.Announcement.Detail<T> detail) {
        if (schema.keyTemplate().isEmpty()) {
            throw new IllegalArgumentException(schema.type().getSimpleName() + " is not keyed by a pattern: name the"
                    + " subject of " + type.detailType());
        }
        return announces(type, schema, schema::subject, detail);
    }

    /**
     * What goes when its owner is removed ({@link io.tally.core.derive.Removal}): the cascade an owner's last state
     * names, and the one that would remove an owned entity.
     */
    public <O extends Record, M extends Record> Declaration removes(io.tally.core.ItemSchema<O> owner,
                                                                    Function<O, io.tally.core.derive.Cascade> cascade,
                                                                    io.tally.core.ItemSchema<M> owned,
                                                                    Function<M, io.tally.core.derive.Cascade> removedBy) {
        return removes(owner, (before, after) -> true, cascade, owned, removedBy);
    }

    /**
     * As {@link #removes(io.tally.core.ItemSchema, Function, io.tally.core.ItemSchema, Function)}, the cascade also
     * running when an owner is replaced by a state that is not {@code same} as it (a later incarnation of its ids).
     */
    public <O extends Record, M extends Record> Declaration removes(io.tally.core.ItemSchema<O> owner,
                                                                    java.util.function.BiPredicate<O, O> same,
                                                                    Function<O, io.tally.core.derive.Cascade> cascade,
                                                                    io.tally.core.ItemSchema<M> owned,
                                                                    Function<M, io.tally.core.derive.Cascade> removedBy) {
        return add(removals, new io.tally.core.derive.Removal<>(owner, same, cascade, owned, removedBy));
    }

    /** Derived item types it declares ({@link Domain#derivedTypes}). */
    public Declaration derivedTypes(DerivedType... types) {
        return add(derivedTypes, types);
    }

    /**
     * The keys of the domain's base items of {@code type}, one pattern for each shape they take
     * ({@code USER#<userId> / POST#<postId>#<createdAt>}): the registry refuses a pattern that could name an item of
     * another type, base or derived, of any domain (a key-prefix collision). The pattern of a schema keyed by one
     * ({@code ItemSchema.keyed}) that its resources or announcements read is declared with them.
     */
    public Declaration keyPatterns(EntityType type, String... patterns) {
        for (String pattern : patterns) {
            keyPatterns.add(new KeyPattern(type, pattern));
        }
        return this;
    }

    /**
     * The shard counts of what the domain spreads over index partitions or items, each read from its environment
     * variable by both functions and set from the template's parameter ({@link ShardSetting}).
     */
    public Declaration shardSettings(ShardSetting... declared) {
        shardSettings.addAll(List.of(declared));
        return this;
    }

    /** The table's secondary indexes the domain reads, with their keys and projections ({@link TableIndex}). */
    public Declaration indexes(TableIndex... declared) {
        indexes.addAll(List.of(declared));
        return this;
    }

    /**
     * Attributes the domain's items carry into an index another domain declares (one that projects some attributes):
     * the index projects them too.
     */
    public Declaration projects(String index, String... attributes) {
        projections.add(new TableIndex.Projected(index, List.of(attributes)));
        return this;
    }

    /**
     * Counters it adds to shared derived items, in the order the read side shows them ({@link Domain#sharedCounters}).
     */
    public Declaration sharedCounters(SharedCounter... counters) {
        return add(sharedCounters, counters);
    }

    /** Lets other domains find an entity of this type by its id, with the key of its item ({@link Lookup}). */
    public Declaration lookup(EntityType type, Function<String, Key> keyOf) {
        return add(lookups, new Lookup(type, keyOf));
    }

    /**
     * The kinds of events its derivations announce, each with its detail record and whether it is about public data
     * only ({@link Domain#events}).
     */
    public Declaration events(EventType... types) {
        // Declared once however often named (an announcement declares its event too).
        return add(events, java.util.Arrays.stream(types).filter(type -> !events.contains(type))
                .toArray(EventType[]::new));
    }

    /** Its dashboard sections, in the page's order ({@link Domain#dashboard}). */
    public Declaration dashboard(List<DashboardSection> sections) {
        return add(dashboard, sections.toArray(DashboardSection[]::new));
    }

    /** Its dashboard sections ({@link Domain#dashboard}), in order. */
    public Declaration dashboard(DashboardSection... sections) {
        return add(dashboard, sections);
    }

    /** Its part of the demo's seed scenario ({@link Domain#demoSeed}). */
    public Declaration demoSeed(DemoSeed seed) {
        demoSeed = Objects.requireNonNull(seed, "seed");
        return this;
    }

    /** Makes a new instance of its part of the demo's steady load ({@link Domain#demoLoad}). */
    public Declaration demoLoad(Supplier<? extends DemoLoad> load) {
        demoLoad = Objects.requireNonNull(load, "load");
        return this;
    }

    /** Makes its part of the test kit's random workload over a context ({@link Domain#workload}). */
    public Declaration workload(Function<WorkloadContext, ? extends WorkloadPart> part) {
        workload = Objects.requireNonNull(part, "part");
        return this;
    }

    @SafeVarargs
    private <T> Declaration add(List<T> list, T... items) {
        for (T item : items) {
            list.add(Objects.requireNonNull(item, () -> name + ": a null in its declaration"));
        }
        return this;
    }

    String name() {
        return name;
    }

    List<String> requires() {
        return List.copyOf(requires);
    }

    List<EntityType> entityTypes() {
        return List.copyOf(entityTypes);
    }

    List<View<?>> views() {
        return List.copyOf(views);
    }

    List<io.tally.core.derive.Announcement<?>> announcements() {
        return List.copyOf(announcements);
    }

    List<io.tally.core.derive.Removal<?, ?>> removals() {
        return List.copyOf(removals);
    }

    List<EntityResource<?>> resources() {
        return List.copyOf(resources);
    }

    List<DerivedType> derivedTypes() {
        return List.copyOf(derivedTypes);
    }

    List<KeyPattern> keyPatterns() {
        List<KeyPattern> all = new ArrayList<>(keyPatterns);
        List<io.tally.core.ItemSchema<?>> schemas = new ArrayList<>();
        resources.forEach(resource -> schemas.add(resource.schema()));
        announcements.forEach(announcement -> schemas.add(announcement.schema()));
        for (io.tally.core.ItemSchema<?> schema : schemas) {
            schema.keyTemplate().map(template -> new KeyPattern(schema.entityType(), template.pattern()))
                    .filter(pattern -> !all.contains(pattern)).ifPresent(all::add);
        }
        return List.copyOf(all);
    }

    List<ShardSetting> shardSettings() {
        return List.copyOf(shardSettings);
    }

    List<TableIndex> indexes() {
        return List.copyOf(indexes);
    }

    List<TableIndex.Projected> projections() {
        return List.copyOf(projections);
    }

    List<SharedCounter> sharedCounters() {
        return List.copyOf(sharedCounters);
    }

    List<Lookup> lookups() {
        return List.copyOf(lookups);
    }

    List<EventType> events() {
        return List.copyOf(events);
    }

    List<DashboardSection> dashboard() {
        return List.copyOf(dashboard);
    }

    DemoSeed demoSeed() {
        return demoSeed;
    }

    Supplier<? extends DemoLoad> demoLoad() {
        return demoLoad;
    }

    Function<WorkloadContext, ? extends WorkloadPart> workload() {
        return workload;
    }
}
