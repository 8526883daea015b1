package io.tally.core.users;

import io.tally.core.Key;
import io.tally.core.derive.CounterEvents;
import io.tally.core.derive.CounterRef;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code UserStatsChanged}: one event per user whose stats counters a change moved, carrying the deltas (not the
 * totals, which a pure derivation does not know), whichever domain's derivation moved them. Counters of other derived
 * items are ignored.
 */
public final class UserStatsEvents implements CounterEvents {
    public static final String USER_STATS_CHANGED = "UserStatsChanged";

    private final List<String> order;

    /** @param order the user stats counters in the read side's order, the order of each event's {@code changes} */
    public UserStatsEvents(List<String> order) {
        this.order = List.copyOf(order);
    }

    /**
     * @param eventId the stream record's id; each event's id derives from it and the user id
     * @param deltas  counter deltas
     * @return the events ordered by user id; the {@code changes} of each in the read side's order (an undeclared
     *         counter after those, by name), zero deltas left out
     */
    @Override
    public List<DomainEvent> announce(String eventId, Map<CounterRef, Long> deltas) {
        Map<String, Map<String, Long>> byUser = new TreeMap<>();
        deltas.forEach((counter, delta) -> {
            if (counter.type().equals(Users.USER_STATS) && delta != 0) {
                byUser.computeIfAbsent(userIdOf(counter.key()), userId -> new TreeMap<>())
                        .merge(counter.attribute(), delta, Long::sum);
            }
        });
        List<DomainEvent> events = new ArrayList<>();
        byUser.forEach((userId, changes) -> {
            changes.values().removeIf(delta -> delta == 0);
            if (!changes.isEmpty()) {
                events.add(event(eventId, userId, changes));
            }
        });
        return List.copyOf(events);
    }

    private DomainEvent event(String eventId, String userId, Map<String, Long> changes) {
        Map<String, Object> ordered = new LinkedHashMap<>();
        for (String counter : order) {
            Long delta = changes.remove(counter);
            if (delta != null) {
                ordered.put(counter, delta);
            }
        }
        ordered.putAll(changes);
        String id = DomainEvent.idFor(eventId, USER_STATS_CHANGED, userId);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("userId", userId);
        detail.put("changes", Collections.unmodifiableMap(ordered));
        return new DomainEvent(id, USER_STATS_CHANGED, detail);
    }

    private static String userIdOf(Key key) {
        String userId = key.pk().startsWith(Users.PREFIX) ? key.pk().substring(Users.PREFIX.length()) : "";
        if (userId.isEmpty() || !Users.statsKey(userId).equals(key)) {
            throw new IllegalArgumentException("not the key of a user's stats item: " + key);
        }
        return userId;
    }
}
