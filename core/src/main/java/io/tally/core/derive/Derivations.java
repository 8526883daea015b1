package io.tally.core.derive;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.Shards;
import io.tally.core.domains.Domains;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The derivation of each base entity type, and what every other entity type is: types without a derivation
 * (locators, list entries) and derived items derive nothing; a type the application does not know is poison.
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
    private final Function<String, Optional<EntityType>> knownTypes;
    private final int slots;

    private Derivations(List<Derivation> derivations, Function<String, Optional<EntityType>> knownTypes, int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1: " + slots);
        }
        this.knownTypes = knownTypes;
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
     * These derivations, over the entity types of every registered domain ({@link Domains}), with one slot for the
     * items of slotted types.
     */
    public static Derivations of(List<Derivation> derivations) {
        return of(derivations, 1);
    }

    /** These derivations, the items of slotted types ({@link DerivedType#isSlotted}) in {@code slots} slots. */
    public static Derivations of(List<Derivation> derivations, int slots) {
        return new Derivations(derivations, Domains::entityType, slots);
    }

    public static Derivations of(Derivation... derivations) {
        return of(List.of(derivations));
    }

    /**
     * The item a counter change of a record of this stream shard goes to: for a slotted type, the slot of the shard
     * (a shard's records always go to the same slot, so each item carries the watermarks of few shards); for any
     * other type, the counter's own item.
     */
    public Key place(CounterRef counter, String shardId) {
        DerivedType type = counter.type();
        return type.isSlotted() ? type.slotKey(Shards.of(shardId, slots)) : counter.key();
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
        Optional<EntityType> known = knownTypes.apply(entityType);
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
        return derivation == null ? IntendedChanges.NONE : derivation.derive(eventId, oldImage, newImage);
    }

    /** How an item of this type in this state stands to cascades; none for a type without a derivation. */
    public CascadeLinks cascadeLinks(EntityType type, Map<String, AttributeValue> image) {
        Derivation derivation = byType.get(type.attributeValue());
        return derivation == null ? CascadeLinks.NONE : derivation.cascadeLinks(image);
    }
}
