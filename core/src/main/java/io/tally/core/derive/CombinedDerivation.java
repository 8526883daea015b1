package io.tally.core.derive;

import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Several derivations of one entity type as one, as the engine takes one per type: a domain's own (its events,
 * cascades, documents) with those its views compile to. The intended changes of a change are the parts' together:
 * counter deltas added, documents, events, cascades and problems joined in the parts' order. Two parts must not own
 * the same document: a change that would have them both write one is a problem, and neither's is written.
 */
public final class CombinedDerivation implements Derivation {
    private final EntityType entityType;
    private final List<Derivation> parts;

    private CombinedDerivation(EntityType entityType, List<Derivation> parts) {
        this.entityType = entityType;
        this.parts = List.copyOf(parts);
    }

    /**
     * A domain's own derivations with those its declarations compile to (its views', one per type, and its
     * announcements'): each own derivation of a type is combined with the generated ones of that type, generated ones
     * of a type the domain does not derive itself are combined among themselves (or join as they are, alone), and the
     * rest stay as they are. Two own derivations of one type are not combined: the registry's {@code Derivations}
     * refuses them, as before views.
     */
    public static List<Derivation> withViews(List<Derivation> own, List<Derivation> generated) {
        Map<EntityType, List<Derivation>> byType = new LinkedHashMap<>();
        generated.forEach(part -> byType.computeIfAbsent(part.entityType(), type -> new ArrayList<>()).add(part));
        List<Derivation> combined = new ArrayList<>();
        for (Derivation derivation : own) {
            List<Derivation> parts = new ArrayList<>(List.of(derivation));
            parts.addAll(byType.getOrDefault(derivation.entityType(), List.of()));
            byType.remove(derivation.entityType());
            combined.add(parts.size() == 1 ? derivation : new CombinedDerivation(derivation.entityType(), parts));
        }
        byType.forEach((type, parts) -> combined.add(parts.size() == 1 ? parts.get(0)
                : new CombinedDerivation(type, parts)));
        return combined;
    }

    @Override
    public EntityType entityType() {
        return entityType;
    }

    /** The parts, in order. */
    public List<Derivation> parts() {
        return parts;
    }

    @Override
    public IntendedChanges derive(String eventId, Map<String, AttributeValue> oldImage,
                                  Map<String, AttributeValue> newImage) {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        Map<Key, Document> documents = new HashMap<>();
        Set<Key> restated = new HashSet<>();
        List<DomainEvent> events = new ArrayList<>();
        List<Cascade> cascades = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<Key> contested = new HashSet<>();
        for (Derivation part : parts) {
            IntendedChanges changes = part.derive(eventId, oldImage, newImage);
            changes.counterDeltas().forEach((counter, delta) -> deltas.merge(counter, delta, Long::sum));
            changes.documents().forEach((key, document) -> {
                if (documents.putIfAbsent(key, document) != null) {
                    contested.add(key);
                }
            });
            restated.addAll(changes.restated());
            events.addAll(changes.events());
            cascades.addAll(changes.cascades());
            // Each part reads the images itself: an unreadable one is reported once, not once a part.
            changes.problems().stream().filter(problem -> !problems.contains(problem)).forEach(problems::add);
        }
        deltas.values().removeIf(delta -> delta == 0);
        for (Key key : contested) {
            documents.remove(key);
            problems.add("two derivations of " + entityType.attributeValue() + " own the document of " + key);
        }
        restated.retainAll(documents.keySet());
        return new IntendedChanges(deltas, documents, events, cascades, problems, restated);
    }

    @Override
    public CascadeLinks cascadeLinks(Map<String, AttributeValue> image) {
        List<Cascade> removes = new ArrayList<>();
        List<Cascade> removedBy = new ArrayList<>();
        for (Derivation part : parts) {
            CascadeLinks links = part.cascadeLinks(image);
            removes.addAll(links.removes());
            removedBy.addAll(links.removedBy());
        }
        return new CascadeLinks(removes, removedBy);
    }

    @Override
    public String toString() {
        return "combined derivation of " + entityType.attributeValue() + ": " + parts;
    }
}
