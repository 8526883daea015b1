package io.tally.core.domains;

import io.tally.core.DeadLetterItem;
import io.tally.core.DerivedType;
import io.tally.core.DomainSchema;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.PrunerPositionItem;
import io.tally.core.ShardCursorItem;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.favs.Favs;
import io.tally.core.orgs.Orgs;
import io.tally.core.songs.Songs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Core's one registration point: the domains of the application, and the two derived items they share, whose
 * counters each domain declares in its {@link DomainSchema}. A new domain is one line in {@link #ALL}.
 */
public final class Domains {
    /** Every domain, in the order the shared read side shows their figures. */
    public static final List<DomainSchema> ALL = List.of(Blog.SCHEMA, Catalogue.SCHEMA, Orgs.SCHEMA,
            Songs.SCHEMA, Favs.SCHEMA);

    public static final String GLOBAL_STATS_PREFIX = "GLOBAL#STATS#";
    /** The owner's part of a user's stats item: present as soon as the user exists. */
    public static final String USER_STATS_USER_ID = "userId";

    /** One per user ({@code stats} item of seed 003): the user's totals, counted by every domain. */
    public static final DerivedType USER_STATS = DerivedType.named("UserStats")
            .key("USER#<userId> / #STATS#", BlogKeys::userStats)
            .counters(all(DomainSchema::userCounters))
            .document(USER_STATS_USER_ID)
            .build();

    /**
     * The application-wide totals, as partial sums in K slots, each in a partition of its own: the stream engine adds
     * a change to the slot of the stream shard it came from, readers sum the slots.
     */
    public static final DerivedType GLOBAL_STATS = DerivedType.named("GlobalStats")
            .key("GLOBAL#STATS#<k> / #STATS#", Domains::globalStatsKey)
            .counters(all(DomainSchema::globalCounters))
            .slotted()
            .build();

    /** The stream processor's own records and bookkeeping: items of these types are neither base nor derived data. */
    public static final Set<EntityType> BOOKKEEPING = Set.of(DeadLetterItem.TYPE, ShardCursorItem.TYPE,
            PrunerPositionItem.TYPE);

    private static final Map<String, EntityType> TYPES = types();
    private static final Map<String, DerivedType> DERIVED = derived();

    private Domains() {
    }

    /** The key of slot {@code k} of the global totals. */
    public static Key globalStatsKey(int slot) {
        return new Key(GLOBAL_STATS_PREFIX + slot, BlogKeys.STATS_SK);
    }

    private static Key globalStatsKey(String slot) {
        return slot.equals(DerivedType.ALL_SLOTS) ? new Key(GLOBAL_STATS_PREFIX + slot, BlogKeys.STATS_SK)
                : globalStatsKey(Integer.parseInt(slot));
    }

    /** The entity type an item's entity type attribute names, if the application knows it. */
    public static Optional<EntityType> entityType(String attributeValue) {
        return Optional.ofNullable(attributeValue == null ? null : TYPES.get(attributeValue));
    }

    /** The declaration of a derived type, if the application knows it. */
    public static Optional<DerivedType> derivedType(String attributeValue) {
        return Optional.ofNullable(attributeValue == null ? null : DERIVED.get(attributeValue));
    }

    /** Every derived type whose items are derived data: the shared ones, then each domain's. */
    public static List<DerivedType> derivedTypes() {
        return List.copyOf(DERIVED.values());
    }

    private static List<String> all(Function<DomainSchema, List<String>> counters) {
        List<String> names = new ArrayList<>();
        for (DomainSchema domain : ALL) {
            for (String name : counters.apply(domain)) {
                if (names.contains(name)) {
                    throw new IllegalStateException("two domains declare the shared counter '" + name + "'");
                }
                names.add(name);
            }
        }
        return names;
    }

    private static Map<String, DerivedType> derived() {
        Map<String, DerivedType> derived = new LinkedHashMap<>();
        List<DerivedType> all = new ArrayList<>(List.of(USER_STATS, GLOBAL_STATS));
        ALL.forEach(domain -> all.addAll(domain.derivedTypes()));
        for (DerivedType type : all) {
            if (derived.put(type.name(), type) != null) {
                throw new IllegalStateException("derived type declared twice: " + type);
            }
        }
        return derived;
    }

    private static Map<String, EntityType> types() {
        Map<String, EntityType> types = new LinkedHashMap<>();
        List<EntityType> all = new ArrayList<>(List.of(USER_STATS.entityType(), GLOBAL_STATS.entityType(),
                DeadLetterItem.TYPE, ShardCursorItem.TYPE, PrunerPositionItem.TYPE));
        for (DomainSchema domain : ALL) {
            all.addAll(domain.baseTypes());
            domain.derivedTypes().forEach(type -> all.add(type.entityType()));
        }
        for (EntityType type : all) {
            if (types.put(type.attributeValue(), type) != null) {
                throw new IllegalStateException("entity type declared twice: " + type);
            }
        }
        return types;
    }
}
