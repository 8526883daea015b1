package io.tally.stream;

import io.tally.core.Timestamps;
import io.tally.stream.engine.RefusedItems;
import io.tally.stream.engine.ShardCursors;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard cursor's claim handed over in a tumbling window's state ({@link ShardCursors.Handover}): Lambda passes
 * the state one invocation of a shard returns to the next invocation of the same shard in the window, and the last
 * invocation of the window ({@code isFinalInvokeForWindow}) releases the claim instead. Flat string entries under
 * {@value #PREFIX}, as Lambda's Java events model the state ({@code Map<String, String>}); a few hundred bytes against
 * the window's limit of 1 MB.
 */
final class WindowState {
    static final String PREFIX = "tally.cursor.";
    private static final String HOLDER = PREFIX + "holder";
    private static final String FROM = PREFIX + "from";
    private static final String ACKNOWLEDGED = PREFIX + "acknowledged";
    private static final String PENDING = PREFIX + "pending";
    private static final String ATTEMPTS = PREFIX + "attempts";
    private static final String PENDING_SINCE = PREFIX + "pendingSince";
    /** {@code hash=epochMillis} pairs joined by commas (hashes are hexadecimal). */
    private static final String REFUSED = PREFIX + "refused";
    private static final String OUTAGE_SINCE = PREFIX + "outageSince";
    private static final String OUTAGE_LAST_FILED = PREFIX + "outageLastFiled";
    private static final Logger LOG = LoggerFactory.getLogger(WindowState.class);

    private WindowState() {
    }

    /** The state that hands {@code handover} over (empty for none). */
    static Map<String, String> of(ShardCursors.Handover handover) {
        Map<String, String> state = new HashMap<>();
        if (handover == null) {
            return state;
        }
        ShardCursors.Progress progress = handover.progress();
        state.put(HOLDER, handover.holder());
        state.put(FROM, handover.from());
        if (progress.acknowledged() != null) {
            state.put(ACKNOWLEDGED, progress.acknowledged());
        }
        if (progress.pending() != null) {
            state.put(PENDING, progress.pending().sequence());
            state.put(ATTEMPTS, Integer.toString(progress.pending().attempts()));
            if (progress.pending().since() != null) {
                state.put(PENDING_SINCE, Timestamps.format(progress.pending().since()));
            }
        }
        if (!progress.refused().isEmpty()) {
            StringBuilder refused = new StringBuilder();
            new TreeMap<>(progress.refused().byHash()).forEach((hash, when) -> refused
                    .append(refused.isEmpty() ? "" : ",").append(hash).append('=').append(when.toEpochMilli()));
            state.put(REFUSED, refused.toString());
        }
        if (progress.outage() != null) {
            state.put(OUTAGE_SINCE, Timestamps.format(progress.outage().since()));
            state.put(OUTAGE_LAST_FILED, Timestamps.format(progress.outage().lastFiled()));
        }
        return state;
    }

    /**
     * The claim a state hands over, or null when it hands none over, or one that cannot be read (logged): the
     * invocation then claims as one without the state does, which is safe, only slower.
     */
    static ShardCursors.Handover handover(Map<String, String> state) {
        if (state == null || state.get(HOLDER) == null) {
            return null;
        }
        try {
            ShardCursors.Pending pending = state.get(PENDING) == null ? null : new ShardCursors.Pending(
                    state.get(PENDING), Integer.parseInt(state.get(ATTEMPTS)),
                    state.get(PENDING_SINCE) == null ? null : Timestamps.parse(state.get(PENDING_SINCE)));
            ShardCursors.Outage outage = state.get(OUTAGE_SINCE) == null ? null : new ShardCursors.Outage(
                    Timestamps.parse(state.get(OUTAGE_SINCE)), Timestamps.parse(state.get(OUTAGE_LAST_FILED)));
            return new ShardCursors.Handover(state.get(HOLDER), requireValue(state, FROM),
                    new ShardCursors.Progress(pending, state.get(ACKNOWLEDGED), refused(state.get(REFUSED)), outage));
        } catch (RuntimeException e) {
            LOG.warn("the window state's shard cursor claim cannot be read ({}); claiming without it", e.toString());
            return null;
        }
    }

    private static String requireValue(Map<String, String> state, String key) {
        String value = state.get(key);
        if (value == null) {
            throw new IllegalArgumentException(key + " is missing");
        }
        return value;
    }

    private static RefusedItems refused(String value) {
        if (value == null || value.isEmpty()) {
            return RefusedItems.NONE;
        }
        Map<String, Instant> byHash = new HashMap<>();
        for (String pair : value.split(",")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("refused item without a time: " + pair);
            }
            byHash.put(pair.substring(0, equals), Instant.ofEpochMilli(Long.parseLong(pair.substring(equals + 1))));
        }
        return new RefusedItems(byHash);
    }
}
