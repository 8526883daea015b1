package io.tally.core.derive;

import io.tally.core.events.DomainEvent;
import java.util.List;
import java.util.Map;

/**
 * Events that follow from counter deltas alone, whichever derivation moved the counters: a user's stats changed, say.
 * Declared once by the domain that owns the counters ({@code Domain.counterEvents}); the registry's
 * {@code Derivations} announces them after every change's own events. Pure, like a derivation.
 */
@FunctionalInterface
public interface CounterEvents {
    /**
     * @param eventId the stream record's id; each event's id derives from it
     * @param deltas  the change's counter deltas (no zero among them)
     */
    List<DomainEvent> announce(String eventId, Map<CounterRef, Long> deltas);
}
