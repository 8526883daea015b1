package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.Keys;
import io.tally.stream.events.DomainEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code UserStatsChanged} events of one record's counter deltas: one per user whose stats item changes.
 *
 * <p>Minimal version written with the stream engine so that it compiles and runs; the derivation work owns this
 * class and replaces it (same signature).
 */
public final class UserStatsEvents {
    public static final String DETAIL_TYPE = "UserStatsChanged";

    private UserStatsEvents() {
    }

    /**
     * @param eventId the stream record's event id; event ids derive from it
     * @param deltas  the record's counter deltas (all derived items; only user stats items announce)
     * @return the events, ordered by user id
     */
    public static List<DomainEvent> changed(String eventId, Map<CounterRef, Long> deltas) {
        Map<String, Map<String, Long>> byUser = new TreeMap<>();
        deltas.forEach((counter, delta) -> {
            if (counter.type() == EntityType.USER_STATS && delta != 0
                    && counter.key().pk().startsWith(Keys.USER_PREFIX)) {
                String userId = counter.key().pk().substring(Keys.USER_PREFIX.length());
                byUser.computeIfAbsent(userId, u -> new TreeMap<>()).put(counter.attribute(), delta);
            }
        });
        List<DomainEvent> events = new ArrayList<>();
        byUser.forEach((userId, changes) -> {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("userId", userId);
            detail.put("deltas", new LinkedHashMap<String, Object>(changes));
            events.add(new DomainEvent(DomainEvent.idFor(eventId, DETAIL_TYPE, userId), DETAIL_TYPE, detail));
        });
        return events;
    }
}
