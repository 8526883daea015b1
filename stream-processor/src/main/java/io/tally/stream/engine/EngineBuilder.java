package io.tally.stream.engine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.stream.events.EventPublisher;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Wires an {@link Engine} ({@link Engine#builder()}); derivations, store, dead-letter sink and publisher are required.
 */
public final class EngineBuilder {
    Derivations derivations;
    DerivedStore store;
    DeadLetterSink deadLetters;
    EventPublisher publisher;
    StreamMetrics metrics;
    Clock clock;
    int writeConcurrency = Engine.DEFAULT_WRITE_CONCURRENCY;
    ShardCursors cursors;
    ShardParents parents = ShardParents.NONE;
    CascadeRunner cascades = CascadeRunner.NONE;
    Duration lease = Duration.ofMinutes(2);
    int eventAttempts = 5;
    Duration eventGiveUpAfter = Duration.ofMinutes(10);
    int writeAttempts = 5;
    Duration writeGiveUpAfter = Duration.ofMinutes(10);
    Duration releaseBackoff = ShardGuard.FIRST_BACKOFF;

    EngineBuilder() {
    }

    public EngineBuilder derivations(Derivations derivations) {
        this.derivations = derivations;
        return this;
    }

    public EngineBuilder store(DerivedStore store) {
        this.store = store;
        return this;
    }

    public EngineBuilder deadLetters(DeadLetterSink deadLetters) {
        this.deadLetters = deadLetters;
        return this;
    }

    public EngineBuilder publisher(EventPublisher publisher) {
        this.publisher = publisher;
        return this;
    }

    /** Defaults to a private {@link SimpleMeterRegistry}. */
    public EngineBuilder metrics(StreamMetrics metrics) {
        this.metrics = metrics;
        return this;
    }

    /** For the stream lag; defaults to the system clock. */
    public EngineBuilder clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    /** Derived writes of one batch in flight at once; defaults to {@link Engine#DEFAULT_WRITE_CONCURRENCY}. */
    public EngineBuilder writeConcurrency(int writeConcurrency) {
        this.writeConcurrency = writeConcurrency;
        return this;
    }

    /**
     * The shard cursors that guard the ordering assumption; defaults to cursors in memory, which guard only the
     * batches of this engine. Production uses {@link DynamoDbShardCursors}.
     */
    public EngineBuilder cursors(ShardCursors cursors) {
        this.cursors = cursors;
        return this;
    }

    /**
     * What the stream's listing tells of a shard's parent, for the lineages of shards ({@link ShardCursors#lineage}):
     * a shard that continues its parent alone writes the parent's partials of shared items on. Defaults to none:
     * every shard then starts a lineage, and its partials are folded when it is gone. The stream handler's is the
     * shard listing it checks the delivered shard ids against.
     */
    public EngineBuilder parents(ShardParents parents) {
        this.parents = Objects.requireNonNull(parents, "parents");
        return this;
    }

    /** Runs the cascades the derivations ask for; defaults to one that refuses every cascade. */
    public EngineBuilder cascades(CascadeRunner cascades) {
        this.cascades = Objects.requireNonNull(cascades, "cascades");
        return this;
    }

    /**
     * How long a batch processed without a lease of the caller's ({@link Engine#process(java.util.List)}) holds its
     * shard.
     */
    public EngineBuilder lease(Duration lease) {
        this.lease = Objects.requireNonNull(lease, "lease");
        return this;
    }

    /**
     * When the events of a record that failed retryably (throttling, an internal failure of the bus) are given
     * up on and filed as a dead letter: after {@code attempts} failed batches in a row, at least {@code after}
     * since the first (defaults: 5 attempts, 10 minutes); the shard then takes the bus to be in an outage, kept
     * in its cursor, and files its next events that fail retryably at once, until the bus takes one of them or
     * {@code after} passes with nothing filed. Events the bus refuses for good are filed at once.
     */
    public EngineBuilder eventGiveUp(int attempts, Duration after) {
        this.eventAttempts = attempts;
        this.eventGiveUpAfter = Objects.requireNonNull(after, "after");
        return this;
    }

    /**
     * When a derived write that DynamoDB refuses for good (an item over 400 KB, a full item collection) is given
     * up on and filed as a dead letter, so that the shard moves on: after {@code attempts} failed batches in a
     * row at its record, at least {@code after} since the first (defaults: 5 attempts, 10 minutes); a write to an
     * item the shard gave up on before ({@link RefusedItems}, in its cursor) is filed at once. Throttling and
     * other errors that clear are retried until they do.
     */
    public EngineBuilder writeGiveUp(int attempts, Duration after) {
        this.writeAttempts = attempts;
        this.writeGiveUpAfter = Objects.requireNonNull(after, "after");
        return this;
    }

    /**
     * The pause before the second attempt at releasing a shard's cursor, doubled before each further attempt
     * (default 10 ms; at most {@value ShardGuard#RELEASE_ATTEMPTS} attempts, pauses up to 400 ms). The fault test
     * sets zero: its crashed invocations fail every call, where a real one is gone.
     */
    public EngineBuilder releaseBackoff(Duration first) {
        this.releaseBackoff = Objects.requireNonNull(first, "first");
        return this;
    }

    public Engine build() {
        return new Engine(this);
    }
}
