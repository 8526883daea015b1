package io.tally.core.domain;

import io.tally.core.DeadLetterItem;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.PrunerPositionItem;
import io.tally.core.ShardCursorItem;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.StreamListingItem;
import io.tally.core.derive.CombinedDerivation;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.Derivation;
import io.tally.core.view.CounterView;
import io.tally.core.view.View;
import io.tally.core.view.Views;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The domains of the application, put together once and checked: the one place every function, command and test
 * takes the domains from. A domain comes after the domains it {@link Domain#requires requires}, otherwise in the order
 * found (a jar's service file is read top to bottom); that order is also the order of the shared items' read side.
 *
 * <p>Checked when built: a domain's name is a lower-case word and unique; what it requires is there ({@link
 * DomainOrder}); an entity type, derived type, lookup, index or shard setting is declared once; a shared counter
 * belongs to a shared type of the registry and is declared once; no two types have keys in common, and a key pattern
 * describes the keys its function makes ({@link RegistryKeys}); no two routes have one method and path, and no two
 * records the routes answer with have one simple name ({@link RouteTable#check}). A registry that cannot be built
 * says why, naming the domain.
 */
public final class DomainRegistry {
    /** The stream processor's own records and bookkeeping: items of these types are neither base nor derived data. */
    public static final Set<EntityType> BOOKKEEPING = Set.of(DeadLetterItem.TYPE, ShardCursorItem.TYPE,
            PrunerPositionItem.TYPE, StreamListingItem.TYPE);

    /** {@link #load()}'s registry, once loaded (a registry is immutable; two threads may both load it, once). */
    private static volatile DomainRegistry onClassPath;

    private final List<Domain> domains;
    private final Map<String, EntityType> entityTypes = new LinkedHashMap<>();
    private final Map<String, DerivedType> derivedTypes = new LinkedHashMap<>();
    private final Map<String, List<SharedCounter>> sharedCounters = new HashMap<>();
    private final Map<String, Lookup> lookups = new LinkedHashMap<>();
    /** Every type's keys, derived and base, checked as the domains load. */
    private final RegistryKeys keys = new RegistryKeys(DomainRegistry::invalid);
    private final List<TableIndex> indexes;
    private final List<ShardSetting> shardSettings = new ArrayList<>(List.of(ShardSettings.GLOBAL));

    private DomainRegistry(List<Domain> found) {
        this.domains = List.copyOf(DomainOrder.ordered(found, DomainRegistry::invalid));
        BOOKKEEPING.forEach(type -> entityTypes.put(type.attributeValue(), type));
        for (Domain domain : domains) {
            domain.entityTypes().forEach(type -> {
                if (type.isDerived()) {
                    throw invalid(domain, type + " is a derived type: declare it in derivedTypes()");
                }
                addEntityType(domain, type);
            });
            for (DerivedType type : domain.derivedTypes()) {
                addEntityType(domain, type.entityType());
                keys.derived(domain, type);
                derivedTypes.put(type.name(), type);
                if (type.hasOpenCounters()) {
                    sharedCounters.put(type.name(), new ArrayList<>());
                }
            }
            keys.base(domain);
            for (Lookup lookup : domain.lookups()) {
                if (lookups.put(lookup.type().attributeValue(), lookup) != null) {
                    throw invalid(domain, "the lookup of " + lookup.type() + " is declared twice");
                }
            }
        }
        for (Domain domain : domains) {
            for (SharedCounter counter : domain.sharedCounters()) {
                List<SharedCounter> counters = sharedCounters.get(counter.type().name());
                if (counters == null || derivedTypes.get(counter.type().name()) != counter.type()) {
                    throw invalid(domain, "its counter '" + counter.attribute() + "' is on " + counter.type()
                            + ", which no domain of the registry declares as shared");
                }
                if (counters.stream().anyMatch(c -> c.attribute().equals(counter.attribute()))) {
                    throw invalid(domain, "two domains declare the shared counter '" + counter.attribute() + "' of "
                            + counter.type());
                }
                counters.add(counter);
            }
            checkViews(domain);
        }
        this.indexes = TableIndexes.gather(domains, DomainRegistry::invalid);
        for (Domain domain : domains) {
            for (ShardSetting setting : domain.shardSettings()) {
                if (shardSettings.stream().anyMatch(known -> known.variable().equals(setting.variable()))) {
                    throw invalid(domain, "the shard setting " + setting.variable() + " is declared twice");
                }
                shardSettings.add(setting);
            }
        }
        // Last, as it reads the registry: two routes of one path, or two answers of one name, fail the load.
        RouteTable.check(this);
    }

    /**
     * The shard settings the functions read: Tally's own ({@link ShardSettings#GLOBAL}), then every domain's, in the
     * registry's order; the template's shard parameters are made from them.
     */
    public List<ShardSetting> shardSettings() {
        return List.copyOf(shardSettings);
    }

    /** The table's secondary indexes, every domain's, in the registry's order ({@link TableIndexes}). */
    public List<TableIndex> indexes() {
        return indexes;
    }

    /**
     * A domain's views keep their figures in types it declares, count one of its own entity types, and read the
     * existence of a group's entity through a lookup some domain declares: each fails the registry here, not a record
     * or a request later.
     */
    private void checkViews(Domain domain) {
        for (View<?> view : io.tally.core.view.Views.expanded(domain.views())) {
            for (DerivedType type : view.types()) {
                if (!domain.derivedTypes().contains(type)) {
                    throw invalid(domain, view + " keeps its figures in " + type + ", which the domain does not"
                            + " declare in derivedTypes()");
                }
            }
            if (!domain.entityTypes().contains(view.source())) {
                throw invalid(domain, view + " counts " + view.source() + ", which is not one of the domain's own"
                        + " entity types (a view counts its domain's entities; another domain derives its own)");
            }
            if (view instanceof io.tally.core.view.SharedCounts<?> shared) {
                shared.counters().forEach(counter -> {
                    if (!domain.sharedCounters().contains(counter)) {
                        throw invalid(domain, view + " counts in '" + counter.attribute() + "', which the domain"
                                + " does not declare in sharedCounters()");
                    }
                });
            }
            if (view instanceof CounterView<?, ?> counted) {
                counted.read().flatMap(read -> read.existence().entity()).ifPresent(entity -> {
                    if (!lookups.containsKey(entity.attributeValue())) {
                        throw invalid(domain, view + " reads whether a " + entity + " exists, but no domain declares"
                                + " a lookup of it; lookups: " + lookups.keySet());
                    }
                });
            }
        }
    }

    /** The domains the class loader's jars list in {@code META-INF/services/io.tally.core.domain.Domain}. */
    public static DomainRegistry load(ClassLoader loader) {
        List<Domain> found = new ArrayList<>();
        try {
            ServiceLoader.load(Domain.class, loader).forEach(found::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("a domain listed in META-INF/services/" + Domain.class.getName()
                    + " cannot be loaded: " + e.getMessage(), e);
        }
        return new DomainRegistry(found);
    }

    /**
     * The domains on the class path of this class (what a Lambda function's jar holds), loaded and checked once a JVM:
     * every later call answers the same registry (the class path does not change), so the functions' parts that each
     * ask for it do not load and check it again at a cold start.
     */
    public static DomainRegistry load() {
        DomainRegistry loaded = onClassPath;
        if (loaded == null) {
            loaded = load(DomainRegistry.class.getClassLoader());
            onClassPath = loaded;
        }
        return loaded;
    }

    /** These domains (ordered by what they require); for tests and for applications that list them in code. */
    public static DomainRegistry of(List<? extends Domain> domains) {
        return new DomainRegistry(List.copyOf(domains));
    }

    public static DomainRegistry of(Domain... domains) {
        return of(List.of(domains));
    }

    /** The domains, each after those it requires. */
    public List<Domain> domains() {
        return domains;
    }

    /** The domain of this name, if the registry has it. */
    public Optional<Domain> domain(String name) {
        return domains.stream().filter(domain -> domain.name().equals(name)).findFirst();
    }

    /** The entity type an item's entity type attribute names, if the application knows it. */
    public Optional<EntityType> entityType(String attributeValue) {
        return Optional.ofNullable(attributeValue == null ? null : entityTypes.get(attributeValue));
    }

    /** The declaration of a derived type, if the application knows it. */
    public Optional<DerivedType> derivedType(String attributeValue) {
        return Optional.ofNullable(attributeValue == null ? null : derivedTypes.get(attributeValue));
    }

    /** Every derived type whose items are derived data, in the domains' order. */
    public List<DerivedType> derivedTypes() {
        return List.copyOf(derivedTypes.values());
    }

    /**
     * The counters of a derived type in the read side's order: a shared type's from every domain, in the registry's
     * order; any other type's as it declares them.
     */
    public List<String> counters(DerivedType type) {
        return type.hasOpenCounters() ? sharedCounters(type).stream().map(SharedCounter::attribute).toList()
                : type.counters();
    }

    /** The counters the domains add to a shared type, in the registry's order. */
    public List<SharedCounter> sharedCounters(DerivedType type) {
        List<SharedCounter> counters = sharedCounters.get(type.name());
        if (counters == null) {
            throw new IllegalArgumentException(type + " is not a shared type of the registry");
        }
        return List.copyOf(counters);
    }

    /** Whether {@code attribute} is a counter of {@code type} that some domain declares. */
    public boolean declaresCounter(DerivedType type, String attribute) {
        return type.hasOpenCounters()
                ? sharedCounters(type).stream().anyMatch(counter -> counter.attribute().equals(attribute))
                : type.isCounter(attribute);
    }

    /**
     * The lookup of an entity type by name.
     *
     * @throws IllegalStateException when no domain declares it
     */
    public Lookup lookup(String entityType) {
        Lookup lookup = lookups.get(entityType);
        if (lookup == null) {
            throw new IllegalStateException("no domain declares a lookup of '" + entityType + "'; lookups: "
                    + lookups.keySet());
        }
        return lookup;
    }

    /**
     * Every domain's derivations, placed with these shard counts, with the counter events of every domain. A domain's
     * own derivation of an entity type and those its views compile to are one ({@link CombinedDerivation}); two domains
     * deriving one type stay refused ({@link Derivations}).
     */
    public Derivations derivations(ShardSettings shards) {
        List<Derivation> all = new ArrayList<>();
        domains.forEach(domain -> {
            List<Derivation> generated = new ArrayList<>(Views.derivations(domain.views(), shards));
            domain.announcements().forEach(announcement -> generated.add(announcement.derivation()));
            domain.removals().forEach(removal -> generated.addAll(removal.derivations()));
            all.addAll(CombinedDerivation.withViews(domain.derivations(shards), generated));
        });
        return Derivations.of(this, all, shards.global());
    }

    /** The events every domain announces from counter deltas. */
    public List<CounterEvents> counterEvents() {
        List<CounterEvents> all = new ArrayList<>();
        domains.forEach(domain -> all.addAll(domain.counterEvents(this)));
        return all;
    }

    /** The kinds of events the domains declare ({@link Domain#events}), in the registry's order. */
    public List<io.tally.core.events.EventType> events() {
        return domains.stream().flatMap(domain -> domain.events().stream()).toList();
    }

    /** One line a domain: its name, entities, derived types and what it requires (for logs and {@code --help}). */
    public String describe() {
        return domains.stream().map(domain -> domain.name() + ": entities " + names(domain.entityTypes())
                        + ", derived " + domain.derivedTypes()
                        + (domain.requires().isEmpty() ? "" : ", requires " + domain.requires()))
                .collect(Collectors.joining("\n"));
    }

    private static String names(List<EntityType> types) {
        return types.stream().map(EntityType::attributeValue).toList().toString();
    }

    private void addEntityType(Domain domain, EntityType type) {
        if (entityTypes.put(type.attributeValue(), type) != null) {
            throw invalid(domain, "the entity type " + type + " is declared twice");
        }
    }

    static IllegalStateException invalid(Domain domain, String why) {
        return new IllegalStateException("domain '" + domain.name() + "' (" + domain.getClass().getName() + "): " + why);
    }
}
