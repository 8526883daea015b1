package io.tally.stream.engine;

import io.tally.core.Key;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The derived items a shard gave up writing because DynamoDB refused them for good ({@link WriteGiveUp}), and when
 * each was last refused, kept in the shard's cursor: a later write to one of them that is refused for good again is
 * filed at once instead of holding the shard for the give-up period once more, and a write to it that succeeds
 * forgets it. Keyed by a hash of the item's key, the one the item's dead letters carry in their sort key
 * ({@code #derived-<hash>}), so that the cursor stays small; at most {@link #MAX} items, the most recently refused.
 *
 * @param byHash when each item was last refused (milliseconds, as stored), by the hash of its key
 */
public record RefusedItems(Map<String, Instant> byHash) {
    /**
     * Items remembered at most: the most recently refused are kept. Each costs about 40 bytes of the cursor item (a
     * hash of 32 characters and a number), whose claim and release cost one more write unit for each KB it grows by.
     */
    public static final int MAX = 20;
    public static final RefusedItems NONE = new RefusedItems(Map.of());

    public RefusedItems {
        Map<String, Instant> truncated = new HashMap<>();
        Objects.requireNonNull(byHash, "byHash").forEach((hash, when) -> truncated.put(Objects.requireNonNull(hash),
                Timestamps.truncate(Objects.requireNonNull(when))));
        byHash = Map.copyOf(mostRecent(truncated));
    }

    /** The hash an item is remembered by: that of the sort key of its dead letters ({@link DeadLetters#key}). */
    public static String hash(Key key) {
        return DeadLetters.derivedKeyHash(key);
    }

    public boolean isEmpty() {
        return byHash.isEmpty();
    }

    /** Whether the shard gave up a write of this item (and has not written it since). */
    public boolean contains(Key key) {
        return byHash.containsKey(hash(key));
    }

    /** When the item was last refused for good, or null. */
    public Instant since(Key key) {
        return byHash.get(hash(key));
    }

    /**
     * After a batch: the items it {@code refused} (filed as dead letters) remembered as of {@code now}, those it
     * {@code wrote} forgotten, the {@link #MAX} most recently refused kept.
     */
    public RefusedItems after(Collection<Key> refused, Collection<Key> wrote, Instant now) {
        if (refused.isEmpty() && (byHash.isEmpty() || wrote.isEmpty())) {
            return this;
        }
        Map<String, Instant> next = new HashMap<>(byHash);
        wrote.forEach(key -> next.remove(hash(key)));
        refused.forEach(key -> next.put(hash(key), now));
        return next.equals(byHash) ? this : new RefusedItems(next);
    }

    private static Map<String, Instant> mostRecent(Map<String, Instant> items) {
        if (items.size() <= MAX) {
            return items;
        }
        List<Map.Entry<String, Instant>> entries = new ArrayList<>(items.entrySet());
        // Newest first, ties by hash: the same items survive wherever the trimming is done.
        entries.sort(Map.Entry.<String, Instant>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        Map<String, Instant> kept = new HashMap<>();
        entries.subList(0, MAX).forEach(entry -> kept.put(entry.getKey(), entry.getValue()));
        return kept;
    }
}
