package io.tally.stream.engine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.stream.SourceRecord;
import io.tally.stream.derive.Contribution;
import io.tally.stream.derive.CounterRef;
import io.tally.stream.derive.Derivation;
import io.tally.stream.derive.Derivations;
import io.tally.stream.derive.Document;
import io.tally.stream.derive.IntendedChanges;
import io.tally.stream.derive.UserStatsEvents;
import io.tally.stream.events.DomainEvent;
import io.tally.stream.events.EventPublisher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Applies batches of stream records of one shard to derived data, exactly once per derived item, and publishes
 * their domain events after the derived writes they describe. See {@code docs/exactly-once.md}.
 *
 * <p>Every derived item carries, per stream shard, the sequence number of the last record of that shard applied
 * to it (its watermark). A batch becomes one conditional UpdateItem per derived item; the condition on the
 * watermark makes each write idempotent by itself, so duplicated batches, retries from any record, other batch
 * boundaries and a crash between two writes never count a record twice. This needs the records of a shard to be
 * processed one batch at a time, in order (Lambda's ParallelizationFactor 1).
 *
 * <p>Thread-safe for batches of different shards; the derived writes of a batch run concurrently on a bounded
 * pool owned by the engine: {@link #close()} it.
 */
public final class Engine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    /**
     * Refusals in a row after which a write gives up. Within one batch a watermark moves only if the shard is
     * processed twice at the same time; giving up then fails the record and the retry sorts it out.
     */
    private static final int MAX_ATTEMPTS_PER_KEY = 4;

    private final Derivations derivations;
    private final DerivedStore store;
    private final DeadLetterSink deadLetters;
    private final EventPublisher publisher;
    private final StreamMetrics metrics;
    private final Clock clock;
    private final ExecutorService executor;

    private Engine(Builder builder) {
        this.derivations = Objects.requireNonNull(builder.derivations, "derivations");
        this.store = Objects.requireNonNull(builder.store, "store");
        this.deadLetters = Objects.requireNonNull(builder.deadLetters, "deadLetters");
        this.publisher = Objects.requireNonNull(builder.publisher, "publisher");
        this.metrics = builder.metrics != null ? builder.metrics : new StreamMetrics(new SimpleMeterRegistry());
        this.clock = builder.clock != null ? builder.clock : Clock.systemUTC();
        if (builder.writeConcurrency < 1) {
            throw new IllegalArgumentException("write concurrency must be at least 1: " + builder.writeConcurrency);
        }
        this.executor = Executors.newFixedThreadPool(builder.writeConcurrency, new WriterThreads());
    }

    public static Builder builder() {
        return new Builder();
    }

    public StreamMetrics metrics() {
        return metrics;
    }

    /**
     * Processes a batch of records of one shard, in stream order.
     *
     * @throws IllegalArgumentException when the records are of several shards or out of order
     */
    public BatchResult process(List<SourceRecord> batch) {
        long started = System.nanoTime();
        try {
            return run(batch);
        } finally {
            metrics.batchDuration(Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /**
     * Files a record that never became a {@link SourceRecord} (it could not be converted) on the dead-letter route.
     *
     * @return false when the sink failed: the caller must not let the stream move past the record
     */
    public boolean deadLetter(DeadLetter letter) {
        metrics.poison();
        try {
            deadLetters.send(letter);
            return true;
        } catch (RuntimeException e) {
            metrics.failure("dead-letter");
            LOG.warn("dead letter could not be filed: {}", letter.reason(), e);
            return false;
        }
    }

    private BatchResult run(List<SourceRecord> batch) {
        requireOneShardInOrder(batch);
        if (batch.isEmpty()) {
            return BatchResult.empty();
        }
        String shardId = batch.get(0).shardId();
        Instant now = clock.instant();

        List<RecordChanges> changes = new ArrayList<>(batch.size());
        Map<Key, KeyContributions> byKey = new LinkedHashMap<>();
        int skipped = 0;
        int poison = 0;
        for (SourceRecord record : batch) {
            if (record.approximateCreationTime() != null) {
                metrics.lag(Duration.between(record.approximateCreationTime(), now));
            }
            RecordChanges change = derive(record);
            String conflict = conflict(change, byKey);
            if (conflict != null) {
                change = RecordChanges.poisoned(record, conflict);
            }
            if (change.skipReason() != null) {
                skipped++;
                metrics.skipped(change.skipReason());
            }
            if (change.isPoison()) {
                poison++;
                metrics.poison();
                LOG.warn("poison record {} (sequence {}): {}", record.eventId(), record.sequenceNumber(),
                        change.poisonReason());
            }
            coalesce(change, shardId, byKey);
            changes.add(change);
        }

        List<Future<KeyOutcome>> writes = new ArrayList<>(byKey.size());
        for (KeyContributions contributions : byKey.values()) {
            writes.add(executor.submit(() -> write(contributions)));
        }
        List<PendingLetter> letters = new ArrayList<>();
        for (RecordChanges change : changes) {
            if (change.isPoison()) {
                letters.add(new PendingLetter(change, executor.submit(
                        () -> deadLetters.send(DeadLetter.of(change.record(), change.poisonReason())))));
            }
        }

        String failed = null;
        int requests = 0;
        int failedWrites = 0;
        for (Future<KeyOutcome> future : writes) {
            KeyOutcome outcome = await(future);
            requests += outcome.requests();
            if (outcome.failedAt() != null) {
                failedWrites++;
                metrics.failure("derived-write");
                LOG.warn("derived write of {} failed from sequence {}", outcome.key(), outcome.failedAt(),
                        outcome.error());
                failed = min(failed, outcome.failedAt());
            }
        }
        for (PendingLetter letter : letters) {
            try {
                await(letter.future());
            } catch (RuntimeException e) {
                metrics.failure("dead-letter");
                LOG.warn("dead letter of sequence {} could not be filed", letter.change().record().sequenceNumber(), e);
                failed = min(failed, letter.change().paddedSequence());
            }
        }

        EventsOutcome events = publishEventsBefore(failed, changes);
        failed = min(failed, events.failedAt());

        metrics.coalescing(batch.size(), requests);
        String failedSequenceNumber = null;
        if (failed != null) {
            for (RecordChanges change : changes) {
                if (change.paddedSequence().equals(failed)) {
                    failedSequenceNumber = change.record().sequenceNumber();
                    break;
                }
            }
        }
        return new BatchResult(failedSequenceNumber, batch.size(), skipped, poison, requests, failedWrites,
                events.published(), events.failed());
    }

    /** The derivation of one record; never throws for anything the record holds. */
    private RecordChanges derive(SourceRecord record) {
        EntityType type;
        try {
            Optional<EntityType> found = record.entityType();
            if (found.isEmpty()) {
                metrics.record(record.eventName(), "none");
                return RecordChanges.poisoned(record, "no entity type attribute");
            }
            type = found.get();
        } catch (MalformedItemException e) {
            metrics.record(record.eventName(), "unknown");
            return RecordChanges.poisoned(record, "entity type: " + e.getMessage());
        }
        metrics.record(record.eventName(), type.attributeValue());
        if (type.isDerived()) {
            // Our own writes, echoed by the stream.
            return RecordChanges.skipped(record, "derived");
        }
        Optional<Derivation> derivation = derivations.forType(type);
        if (derivation.isEmpty()) {
            return RecordChanges.skipped(record, "no-derivation");
        }

        // A side that cannot be read contributes nothing, which is what a rebuild from a scan does with such an
        // item: derived data still equals a recomputation, and the record goes to the dead-letter route.
        List<String> problems = new ArrayList<>();
        Contribution before = contribution(derivation.get(), record.oldImage(), "old image", problems);
        Contribution after = contribution(derivation.get(), record.newImage(), "new image", problems);
        List<DomainEvent> events = new ArrayList<>();
        try {
            events.addAll(derivation.get().events(record.eventId(), record.oldImage(), record.newImage()));
        } catch (RuntimeException e) {
            problems.add("events: " + describe(e));
        }
        IntendedChanges changes = IntendedChanges.between(before, after, List.of());
        String reserved = reservedAttribute(changes);
        if (reserved != null) {
            return RecordChanges.poisoned(record, "derivation writes the reserved attribute " + reserved);
        }
        try {
            events.addAll(UserStatsEvents.changed(record.eventId(), changes.counterDeltas()));
        } catch (RuntimeException e) {
            problems.add("user stats events: " + describe(e));
        }
        return new RecordChanges(record, record.paddedSequence(), changes.counterDeltas(), changes.documents(),
                events, null, problems.isEmpty() ? null : String.join("; ", problems));
    }

    private static Contribution contribution(Derivation derivation, Map<String, AttributeValue> image, String side,
                                             List<String> problems) {
        if (image == null) {
            return Contribution.NONE;
        }
        try {
            return derivation.contribution(image);
        } catch (RuntimeException e) {
            problems.add(side + ": " + describe(e));
            return Contribution.NONE;
        }
    }

    private static String reservedAttribute(IntendedChanges changes) {
        for (CounterRef counter : changes.counterDeltas().keySet()) {
            if (DerivedWrite.isReserved(counter.attribute())) {
                return counter.attribute();
            }
        }
        for (Document document : changes.documents().values()) {
            for (String attribute : document.owned()) {
                if (DerivedWrite.isReserved(attribute)) {
                    return attribute;
                }
            }
        }
        return null;
    }

    /**
     * Why a record's changes cannot join the batch's writes (null when they can): derivations that disagree on
     * the type of a derived item, or a counter that is also a document attribute. Both are derivation bugs; the
     * record goes to the dead-letter route instead of making a write that can never succeed.
     */
    private static String conflict(RecordChanges change, Map<Key, KeyContributions> byKey) {
        Map<Key, EntityType> types = new LinkedHashMap<>();
        Map<Key, Set<String>> counters = new LinkedHashMap<>();
        Map<Key, Set<String>> documents = new LinkedHashMap<>();
        for (CounterRef counter : change.counterDeltas().keySet()) {
            EntityType seen = types.putIfAbsent(counter.key(), counter.type());
            if (seen != null && seen != counter.type()) {
                return "derivations disagree on the type of " + counter.key();
            }
            counters.computeIfAbsent(counter.key(), k -> new HashSet<>()).add(counter.attribute());
        }
        for (Map.Entry<Key, Document> document : change.documents().entrySet()) {
            Key key = document.getKey();
            EntityType type = document.getValue().type();
            EntityType seen = types.putIfAbsent(key, type);
            if (seen != null && seen != type) {
                return "derivations disagree on the type of " + key;
            }
            documents.computeIfAbsent(key, k -> new HashSet<>()).addAll(document.getValue().owned());
        }
        for (Map.Entry<Key, EntityType> type : types.entrySet()) {
            Key key = type.getKey();
            KeyContributions existing = byKey.get(key);
            Set<String> counterNames = new HashSet<>(counters.getOrDefault(key, Set.of()));
            Set<String> documentNames = new HashSet<>(documents.getOrDefault(key, Set.of()));
            if (existing != null) {
                if (existing.type() != null && existing.type() != type.getValue()) {
                    return "derivations disagree on the type of " + key;
                }
                counterNames.addAll(existing.counterAttributes());
                documentNames.addAll(existing.documentAttributes());
            }
            counterNames.retainAll(documentNames);
            if (!counterNames.isEmpty()) {
                return "attributes " + counterNames + " of " + key + " are both counters and document attributes";
            }
        }
        return null;
    }

    private static void coalesce(RecordChanges change, String shardId, Map<Key, KeyContributions> byKey) {
        Function<Key, KeyContributions> create = key -> new KeyContributions(key, shardId);
        change.counterDeltas().forEach((counter, delta) -> byKey.computeIfAbsent(counter.key(), create)
                .addCounter(change.paddedSequence(), counter.type(), counter.attribute(), delta));
        change.documents().forEach((key, document) -> byKey.computeIfAbsent(key, create)
                .addDocument(change.paddedSequence(), document));
    }

    /** Writes one derived item until its contributions are in, or fails; never throws. */
    private KeyOutcome write(KeyContributions contributions) {
        String watermark = null;
        int requests = 0;
        for (int attempt = 0; attempt < MAX_ATTEMPTS_PER_KEY; attempt++) {
            Optional<DerivedWrite> write;
            try {
                write = contributions.writeAfter(watermark);
            } catch (RuntimeException e) {
                return new KeyOutcome(contributions.key(), requests, contributions.lowestAfter(watermark), e);
            }
            if (write.isEmpty()) {
                return new KeyOutcome(contributions.key(), requests, null, null);
            }
            DerivedStore.Outcome outcome;
            try {
                requests++;
                metrics.derivedWrite();
                outcome = store.apply(write.get());
            } catch (RuntimeException e) {
                return new KeyOutcome(contributions.key(), requests, write.get().firstSequence(), e);
            }
            if (!(outcome instanceof DerivedStore.WatermarkAhead ahead)) {
                return new KeyOutcome(contributions.key(), requests, null, null);
            }
            watermark = ahead.current();
        }
        return new KeyOutcome(contributions.key(), requests, contributions.lowestAfter(watermark),
                new IllegalStateException("the watermark of " + contributions.key() + " kept moving during the batch:"
                        + " is the shard processed twice at the same time (ParallelizationFactor > 1)?"));
    }

    /** Publishes, in record order, the events of the records before {@code failed} (all records when null). */
    private EventsOutcome publishEventsBefore(String failed, List<RecordChanges> changes) {
        List<DomainEvent> events = new ArrayList<>();
        List<RecordChanges> owners = new ArrayList<>();
        for (RecordChanges change : changes) {
            if (failed != null && change.paddedSequence().compareTo(failed) >= 0) {
                break;
            }
            for (DomainEvent event : change.events()) {
                events.add(event);
                owners.add(change);
            }
        }
        if (events.isEmpty()) {
            return new EventsOutcome(0, 0, null);
        }
        List<DomainEvent> notPublished;
        try {
            notPublished = publisher.publish(events);
        } catch (RuntimeException e) {
            LOG.warn("publishing {} events failed", events.size(), e);
            notPublished = events;
        }
        metrics.eventsPublished(events.size() - notPublished.size());
        metrics.eventsFailed(notPublished.size());
        if (notPublished.isEmpty()) {
            return new EventsOutcome(events.size(), 0, null);
        }
        Set<String> failedIds = new HashSet<>();
        notPublished.forEach(event -> failedIds.add(event.id()));
        // The first record with an event that failed; when the publisher names events it was never given, the
        // first record with events, so that nothing is lost.
        String failedAt = owners.get(0).paddedSequence();
        for (int i = 0; i < events.size(); i++) {
            if (failedIds.contains(events.get(i).id())) {
                failedAt = owners.get(i).paddedSequence();
                break;
            }
        }
        return new EventsOutcome(events.size() - notPublished.size(), notPublished.size(), failedAt);
    }

    private static void requireOneShardInOrder(List<SourceRecord> batch) {
        for (int i = 1; i < batch.size(); i++) {
            SourceRecord previous = batch.get(i - 1);
            SourceRecord record = batch.get(i);
            if (!record.shardId().equals(previous.shardId())) {
                throw new IllegalArgumentException("a batch holds the records of one shard: " + previous.shardId()
                        + " and " + record.shardId());
            }
            if (record.paddedSequence().compareTo(previous.paddedSequence()) <= 0) {
                throw new IllegalArgumentException("records out of stream order: " + previous.sequenceNumber()
                        + " before " + record.sequenceNumber());
            }
        }
    }

    private static <T> T await(Future<T> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    // The write is in flight and may commit: its outcome must be known before the batch reports.
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String min(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String describe(RuntimeException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** Waits for writes in flight, then stops the pool. */
    @Override
    public void close() {
        executor.shutdown();
        boolean interrupted = false;
        while (!executor.isTerminated()) {
            try {
                executor.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The result of writing one derived item: failedAt is the lowest unapplied sequence when it failed. */
    private record KeyOutcome(Key key, int requests, String failedAt, RuntimeException error) {
    }

    private record PendingLetter(RecordChanges change, Future<?> future) {
    }

    private record EventsOutcome(int published, int failed, String failedAt) {
    }

    private static final class WriterThreads implements ThreadFactory {
        private static final AtomicInteger POOLS = new AtomicInteger();
        private final int pool = POOLS.incrementAndGet();
        private final AtomicInteger threads = new AtomicInteger();

        @Override
        public Thread newThread(Runnable runnable) {
            Thread thread = new Thread(runnable, "tally-derived-writes-" + pool + "-" + threads.incrementAndGet());
            // A Lambda container is frozen, not shut down: the pool must never keep a JVM alive on its own.
            thread.setDaemon(true);
            return thread;
        }
    }

    /** Wires an engine; derivations, store, dead-letter sink and publisher are required. */
    public static final class Builder {
        private Derivations derivations;
        private DerivedStore store;
        private DeadLetterSink deadLetters;
        private EventPublisher publisher;
        private StreamMetrics metrics;
        private Clock clock;
        private int writeConcurrency = 8;

        private Builder() {
        }

        public Builder derivations(Derivations derivations) {
            this.derivations = derivations;
            return this;
        }

        public Builder store(DerivedStore store) {
            this.store = store;
            return this;
        }

        public Builder deadLetters(DeadLetterSink deadLetters) {
            this.deadLetters = deadLetters;
            return this;
        }

        public Builder publisher(EventPublisher publisher) {
            this.publisher = publisher;
            return this;
        }

        /** Defaults to a private {@link SimpleMeterRegistry}. */
        public Builder metrics(StreamMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        /** For the stream lag; defaults to the system clock. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** Derived writes of one batch in flight at once; defaults to 8. */
        public Builder writeConcurrency(int writeConcurrency) {
            this.writeConcurrency = writeConcurrency;
            return this;
        }

        public Engine build() {
            return new Engine(this);
        }
    }
}
