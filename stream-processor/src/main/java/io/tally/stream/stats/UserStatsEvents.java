package io.tally.stream.stats;

import io.tally.core.Key;
import io.tally.core.blog.BlogKeys;
import io.tally.core.domains.Domains;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code UserStatsChanged}: one event per user whose stats counters a change moved, carrying the deltas (not the
 * totals, which a pure derivation does not know). Counters of other derived items are ignored.
 */
public final class UserStatsEvents {
    public static final String USER_STATS_CHANGED = "UserStatsChanged";

    private UserStatsEvents() {
    }

    /**
     * @param eventId the stream record's id; each event's id derives from it and the user id
     * @param deltas  counter deltas, e.g. {@link IntendedChanges#counterDeltas()}
     * @return the events ordered by user id; the {@code changes} of each in {@link UserStats#COUNTERS} order
     *         (an unknown counter after those, by name), zero deltas left out
     */
    public static List<DomainEvent> changed(String eventId, IntendedChanges changes) {
        return changed(eventId, changes.counterDeltas());
    }

    public static List<DomainEvent> changed(String eventId, Map<CounterRef, Long> deltas) {
        Map<String, Map<String, Long>> byUser = new TreeMap<>();
        deltas.forEach((counter, delta) -> {
            if (counter.type().equals(Domains.USER_STATS) && delta != 0) {
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

    private static DomainEvent event(String eventId, String userId, Map<String, Long> changes) {
        Map<String, Object> ordered = new LinkedHashMap<>();
        for (String counter : Domains.USER_STATS.counters()) {
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
        String userId = key.pk().startsWith(BlogKeys.USER_PREFIX) ? key.pk().substring(BlogKeys.USER_PREFIX.length()) : "";
        if (userId.isEmpty() || !BlogKeys.userStats(userId).equals(key)) {
            throw new IllegalArgumentException("not the key of a user's stats item: " + key);
        }
        return userId;
    }
}
