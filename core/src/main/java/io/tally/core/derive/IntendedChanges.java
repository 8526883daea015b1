package io.tally.core.derive;

import io.tally.core.Key;
import io.tally.core.events.DomainEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one change of a base item asks of derived data: counter deltas, document upserts and removals, the domain
 * events it announces, the base items its removal removes in turn ({@link Cascade}), and the problems met while
 * deriving it. Pure data; the engine decides how to write it.
 *
 * @param problems why part of the change could not be derived (an unreadable image, a derivation bug): the record
 *                 still applies what could be derived and goes to the dead-letter route; empty when all went well
 * @param restated the keys of {@code documents} that both sides of the change hold with the same type and values
 *                 (a user renamed: its stats item's document is its id either way). Writing one only moves the item's
 *                 revision; the engine leaves it out (see {@code docs/exactly-once.md}, "Documents a change restates")
 */
public record IntendedChanges(Map<CounterRef, Long> counterDeltas, Map<Key, Document> documents,
                              List<DomainEvent> events, List<Cascade> cascades, List<String> problems,
                              Set<Key> restated) {
    public static final IntendedChanges NONE = new IntendedChanges(Map.of(), Map.of(), List.of(), List.of());

    public IntendedChanges {
        counterDeltas = Map.copyOf(counterDeltas);
        documents = Map.copyOf(documents);
        events = List.copyOf(events);
        cascades = List.copyOf(cascades);
        problems = List.copyOf(problems);
        restated = Set.copyOf(restated);
        if (!documents.keySet().containsAll(restated)) {
            throw new IllegalArgumentException("a restated document is one of the change's documents: " + restated);
        }
    }

    /** A change that restates no document. */
    public IntendedChanges(Map<CounterRef, Long> counterDeltas, Map<Key, Document> documents, List<DomainEvent> events,
                           List<Cascade> cascades, List<String> problems) {
        this(counterDeltas, documents, events, cascades, problems, Set.of());
    }

    /** A change that removes nothing in turn. */
    public IntendedChanges(Map<CounterRef, Long> counterDeltas, Map<Key, Document> documents, List<DomainEvent> events,
                           List<String> problems) {
        this(counterDeltas, documents, events, List.of(), problems);
    }

    /**
     * The difference between two contributions: counters by subtraction (zero deltas dropped), documents as the
     * new state of every document either side owns. A document only the old side had is a removal, one revision
     * above the old document: it beats the state it removes (see {@link Document}); but a constant document is never
     * removed ({@link io.tally.core.DerivedType#hasConstantDocument}).
     */
    public static IntendedChanges between(Contribution before, Contribution after) {
        Map<CounterRef, Long> deltas = new HashMap<>(after.counters());
        before.counters().forEach((counter, amount) -> deltas.merge(counter, -amount, Long::sum));
        deltas.values().removeIf(delta -> delta == 0);
        Map<Key, Document> documents = new HashMap<>(after.documents());
        Set<Key> gone = new HashSet<>(before.documents().keySet());
        gone.removeAll(after.documents().keySet());
        gone.removeIf(key -> before.documents().get(key).type().hasConstantDocument());
        for (Key key : gone) {
            Document old = before.documents().get(key);
            documents.put(key, Document.removed(old.type(), old.revision() + 1));
        }
        Set<Key> restated = new HashSet<>();
        after.documents().forEach((key, document) -> {
            Document old = before.documents().get(key);
            if (old != null && old.type() == document.type() && old.values().equals(document.values())) {
                restated.add(key);
            }
        });
        return new IntendedChanges(deltas, documents, List.of(), List.of(), List.of(), restated);
    }

    /** Whether the whole change could be derived. */
    public boolean isClean() {
        return problems.isEmpty();
    }
}
