package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.MalformedItemException;
import io.tally.stream.events.DomainEvent;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The derivation of each base entity type; types without one (locators, list entries, derived items) derive nothing. */
public final class Derivations {
    private final Map<EntityType, Derivation> byType = new EnumMap<>(EntityType.class);

    private Derivations(List<Derivation> derivations) {
        for (Derivation derivation : derivations) {
            if (derivation.entityType().isDerived()) {
                throw new IllegalArgumentException("derived items must not derive: " + derivation.entityType());
            }
            if (byType.put(derivation.entityType(), derivation) != null) {
                throw new IllegalArgumentException("two derivations for " + derivation.entityType());
            }
        }
    }

    /** Tally's derivations for the blog and the learning catalogue. */
    public static Derivations standard(DerivationSettings settings) {
        return new Derivations(List.of(
                new UserDerivation(settings.globalShards()),
                new PostDerivation(settings.statusShards(), settings.globalShards()),
                new CommentDerivation(settings.globalShards()),
                new CatalogueItemDerivation(settings.selectorShards(), settings.globalShards()),
                new UserItemDerivation(settings.globalShards())));
    }

    public static Derivations of(Derivation... derivations) {
        return new Derivations(List.of(derivations));
    }

    public Optional<Derivation> forType(EntityType type) {
        return Optional.ofNullable(byType.get(type));
    }

    /**
     * The intended changes of one change of a base item (for tests and tools; the engine works with
     * contributions directly): the derivation's events followed by the {@code UserStatsChanged} events of the
     * counter deltas.
     *
     * @throws MalformedItemException when an image is malformed
     */
    public IntendedChanges derive(EntityType type, String eventId, Map<String, AttributeValue> oldImage,
                                  Map<String, AttributeValue> newImage) {
        Derivation derivation = byType.get(type);
        if (derivation == null) {
            return IntendedChanges.between(Contribution.NONE, Contribution.NONE, List.of());
        }
        Contribution before = oldImage == null ? Contribution.NONE : derivation.contribution(oldImage);
        Contribution after = newImage == null ? Contribution.NONE : derivation.contribution(newImage);
        IntendedChanges changes = IntendedChanges.between(before, after, List.of());
        List<DomainEvent> events = new ArrayList<>(derivation.events(eventId, oldImage, newImage));
        events.addAll(UserStatsEvents.changed(eventId, changes.counterDeltas()));
        return new IntendedChanges(changes.counterDeltas(), changes.documents(), events);
    }
}
