package io.tally.bench.model;

import java.util.ArrayDeque;
import java.util.Random;

/**
 * The echo of the function's own writes: on AWS every item Tally writes comes back through the table's stream, and the
 * event source mapping reads it (a place in a GetRecords page of at most 1,000 records) before its filter drops it
 * (the template's filter drops every type Tally writes; {@code TemplateTest} holds it to the registry's derived and
 * bookkeeping types). The function process reports when each of its writes succeeded ({@link ModelInterceptor});
 * here each becomes a record readable a stream delay later, which the modelled mapping reads and drops. The
 * assumption: the shard receives as many echoed records as its own function writes (the writes of all shards'
 * functions spread over all partitions evenly). The run's table has no stream of its own: DynamoDB Local slows down
 * with every record a table's stream holds.
 */
final class Echoes {
    /** When each echo not yet read is readable from ({@link System#nanoTime}), in order. */
    private final ArrayDeque<Long> readable = new ArrayDeque<>();
    private final StreamDelay delay;
    private final double scale;
    private final Random random;
    private long last;
    private long seen;

    Echoes(StreamDelay delay, double scale, long seed) {
        this.delay = delay;
        this.scale = scale;
        this.random = new Random(seed);
    }

    /** Writes that succeeded at these {@link System#nanoTime} instants (the host's monotonic clock, shared). */
    synchronized void written(long[] nanoTimes) {
        for (long written : nanoTimes) {
            last = Math.max(last, written + Math.round(delay.drawNanos(random) * scale));
            readable.add(last);
            seen++;
        }
    }

    /** The instant the next echo is readable from, if it is readable at {@code nowNanos}; else -1. */
    synchronized long peek(long nowNanos) {
        Long next = readable.peek();
        return next != null && next <= nowNanos ? next : -1;
    }

    synchronized void poll() {
        readable.poll();
    }

    /** Echoed records so far. */
    synchronized long seen() {
        return seen;
    }
}
