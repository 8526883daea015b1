package io.tally.domains.songs;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** A month's chart: entries by downloads descending, ties by song id ascending (pure). */
final class Chart {
    static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::downloads).reversed()
            .thenComparing(Entry::songId);

    private Chart() {
    }

    /** One song's entry: its downloads in the month. */
    record Entry(String songId, long downloads) {
    }

    /** The first {@code limit} of the candidates in chart order. */
    static List<Entry> top(Collection<Entry> candidates, int limit) {
        return candidates.stream().sorted(ORDER).limit(limit).toList();
    }

    /**
     * Whether a partition read only to its first {@code limit} entries may hide entries of the chart: only entries
     * tied with the last place can, when the partition had more and its last read entry has that count. The index
     * orders a partition by count alone, so which of several equal counts come first is not defined, and the one with
     * the lowest song id may be among those not read.
     */
    static boolean mayHideTies(List<Entry> top, int limit, boolean partitionHasMore, long partitionLast) {
        return top.size() == limit && partitionHasMore && partitionLast == top.get(limit - 1).downloads();
    }
}
