package io.tally.stream.derive;

import io.tally.core.Key;
import io.tally.stream.events.DomainEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one change of a base item asks of derived data: counter deltas, document upserts and removals, and the
 * domain events it announces. Pure data; the engine decides how to write it.
 */
public record IntendedChanges(Map<CounterRef, Long> counterDeltas, Map<Key, Document> documents,
                              List<DomainEvent> events) {

    public IntendedChanges {
        counterDeltas = Map.copyOf(counterDeltas);
        documents = Map.copyOf(documents);
        events = List.copyOf(events);
    }

    /**
     * The difference between two contributions: counters by subtraction (zero deltas dropped), documents as the
     * new state of every document either side owns (a document only the old side had is a removal).
     */
    public static IntendedChanges between(Contribution before, Contribution after, List<DomainEvent> events) {
        Map<CounterRef, Long> deltas = new HashMap<>(after.counters());
        before.counters().forEach((counter, amount) -> deltas.merge(counter, -amount, Long::sum));
        deltas.values().removeIf(delta -> delta == 0);
        Map<Key, Document> documents = new HashMap<>(after.documents());
        Set<Key> gone = new HashSet<>(before.documents().keySet());
        gone.removeAll(after.documents().keySet());
        for (Key key : gone) {
            Document old = before.documents().get(key);
            documents.put(key, Document.removed(old.type(), old.owned()));
        }
        return new IntendedChanges(deltas, documents, events);
    }
}
