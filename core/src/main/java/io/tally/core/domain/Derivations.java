package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.ShardToken;
import io.tally.core.Shards;
import io.tally.core.derive.CascadeLinks;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The derivation of each base entity type, and what every other entity type is: types without a derivation
 * (locators, list entries) and derived items derive nothing; a type the application does not know is poison.
 *
 * <p>Every change goes through {@link #derive}, which adds to a derivation's answer what holds for every domain: the
 * events that follow from counter deltas ({@link Domain#counterEvents}), announced after the change's own, and the
 * check that a counter of a shared item is one some domain declares.
 */
public final class Derivations {
    /** How the stream treats a record of some entity type. */
    public sealed interface Route permits Derive, Skip, Unknown {
    }

    /** Derive it with this derivation. */
    public record Derive(Derivation derivation) implements Route {
    }

    /** Nothing to derive, by design; {@code reason} names why (for the metrics). */
    public record Skip(String reason) implements Route {
    }

    /** An entity type the application does not know. */
    public record Unknown() implements Route {
    }

    private final Map<String, Derivation> byType = new LinkedHashMap<>();
    private final DomainRegistry registry;
    private final List<CounterEvents> counterEvents;
    private final int slots;

    private Derivations(DomainRegistry registry, List<Derivation> derivations, int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1: " + slots);
        }
        this.registry = registry;
        this.counterEvents = registry.counterEvents();
        this.slots = slots;
        for (Derivation derivation : derivations) {
            if (derivation.entityType().isDerived()) {
                throw new IllegalArgumentException("derived items must not derive: " + derivation.entityType());
            }
            if (byType.put(derivation.entityType().attributeValue(), derivation) != null) {
                throw new IllegalArgumentException("two derivations for " + derivation.entityType());
            }
        }
    }

    /**
     * These derivations over the registry's entity types and counter events, the items of slotted types
     * ({@link DerivedType#isSlotted}) in {@code slots} slots. The application's are {@link DomainRegistry#derivations}.
     */
    public static Derivations of(DomainRegistry registry, List<Derivation> derivations, int slots) {
        return new Derivations(registry, derivations, slots);
    }

    /** These derivations over the registry, with one slot for the items of slotted types. */
    public static Derivations of(DomainRegistry registry, Derivation... derivations) {
        return of(registry, List.of(derivations), 1);
    }

    /** The registry whose entity types and derived types these derivations know. */
    public DomainRegistry registry() {
        return registry;
    }

    /**
     * The item a counter change of a record goes to, from a stream shard of this lineage (the id of the first shard of
     * the chain of rollovers the record's shard continues, which the stream processor settles once per shard and keeps
     * in its cursor; a shard's own id when it starts a lineage): for a shared type ({@link DerivedType#isShared}), the
     * lineage's partial of the counter's item, in the slot of the lineage for a slotted type (a lineage's records always
     * go to the same slot, so that the partials of one subject are spread over the slots' partitions); for any other
     * type, the counter's own item. A shard that continues its parent so goes on writing the parent's partials, which
     * then need no fold when the parent goes.
     */
    public Key place(CounterRef counter, String lineage) {
        DerivedType type = counter.type();
        if (!type.isShared()) {
            return counter.key();
        }
        Key base = type.isSlotted() ? type.inSlot(counter.key(), Integer.toString(Shards.of(lineage, slots)))
                : counter.key();
        return type.partial(base, ShardToken.of(lineage));
    }

    public Optional<Derivation> forType(EntityType type) {
        return Optional.ofNullable(byType.get(type.attributeValue()));
    }

    /** The entity types that derive, in registration order. */
    public List<EntityType> types() {
        return byType.values().stream().map(Derivation::entityType).toList();
    }

    /** How a record whose items carry this entity type attribute is treated. */
    public Route route(String entityType) {
        Derivation derivation = byType.get(entityType);
        if (derivation != null) {
            return new Derive(derivation);
        }
        Optional<EntityType> known = registry.entityType(entityType);
        if (known.isEmpty()) {
            return new Unknown();
        }
        // Our own writes, echoed by the stream, and base items that feed nothing.
        return new Skip(known.get().isDerived() ? "derived" : "no-derivation");
    }

    /**
     * The intended changes of one change of an item (the engine, the rebuilder and the tests' oracle all go through
     * here); a type without a derivation changes nothing.
     */
    public IntendedChanges derive(EntityType type, String eventId, Map<String, AttributeValue> oldImage,
                                  Map<String, AttributeValue> newImage) {
        Derivation derivation = byType.get(type.attributeValue());
        if (derivation == null) {
            return IntendedChanges.NONE;
        }
        IntendedChanges changes = derivation.derive(eventId, oldImage, newImage);
        List<String> problems = new ArrayList<>(changes.problems());
        changes.counterDeltas().keySet().forEach(counter -> {
            if (!registry.declaresCounter(counter.type(), counter.attribute())) {
                problems.add("counter '" + counter.attribute() + "' of " + counter.type() + " is declared by no domain");
            }
        });
        List<DomainEvent> events = new ArrayList<>(changes.events());
        for (CounterEvents announcer : counterEvents) {
            try {
                events.addAll(announcer.announce(eventId, changes.counterDeltas()));
            } catch (RuntimeException e) {
                problems.add("counter events: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            }
        }
        if (events.size() == changes.events().size() && problems.size() == changes.problems().size()) {
            return changes;
        }
        return new IntendedChanges(changes.counterDeltas(), changes.documents(), events, changes.cascades(), problems,
                changes.restated());
    }

    /** How an item of this type in this state stands to cascades; none for a type without a derivation. */
    public CascadeLinks cascadeLinks(EntityType type, Map<String, AttributeValue> image) {
        Derivation derivation = byType.get(type.attributeValue());
        return derivation == null ? CascadeLinks.NONE : derivation.cascadeLinks(image);
    }
}
