package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Recomputes all derived data with the same {@link Derivations} the stream processor uses, at a position of the
 * table's stream, reports every difference from the stored derived items, and can repair them. It is the oracle of
 * the tests, and the operator's verify, repair and backfill tool ({@code docs/exactly-once.md}, "Repair and
 * backfill").
 *
 * <p>The recomputation: a parallel scan of the table, then every record the stream holds (read after the scan, to
 * its end). The state of a base item at the stream's position is the new image of its last record, or the scanned
 * state if it has none; derived data is the sum of those states' contributions. The scan need not be a snapshot: a
 * change made while it ran has a record, which the read finds, and the last record wins.
 *
 * <p>{@link #verify} compares the derived items that have caught up with the position and counts the others; it also
 * reports the cascades left undone (memberships of a team removed before the stream began). {@link #repair} first
 * runs those cascades and recomputes after them, then writes each item that differs or is behind with its content at
 * the position and the position as its watermarks, so that the stream processor skips the records the content
 * already reflects: it is safe while the stream processor runs, and refuses (reports) an item the processor has
 * moved past the position meanwhile.
 */
public final class Rebuilder {
    private static final Logger LOG = LoggerFactory.getLogger(Rebuilder.class);
    /** The stream keeps records 24 hours; the scan and the read must end well before the first ones go. */
    private static final Duration RETENTION_MARGIN = Duration.ofHours(23);
    /** How many shards the stream read reads at the same time unless told otherwise. */
    public static final int DEFAULT_STREAM_READERS = 32;

    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private final String table;
    private final Derivations derivations;
    private final int segments;
    private final StreamHistory history;
    private final Duration settle;
    private final int streamReaders;
    private final Clock clock;
    private final CascadeRunner cascades;
    private final boolean unknownTypesAllowed;

    /**
     * @param streams  the table's stream is read with it; a table without a stream is recomputed from the scan alone,
     *                 and so is any table when this is null (its stream fully processed under shard ids of its own,
     *                 as tests that re-cut a stream into synthetic shards do)
     * @param segments parallel scan segments
     */
    public Rebuilder(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, Derivations derivations,
                     int segments) {
        this(dynamo, streams, table, derivations, segments, Duration.ZERO, DEFAULT_STREAM_READERS, Clock.systemUTC(),
                CascadeRunner.NONE, false);
    }

    private Rebuilder(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, Derivations derivations,
                      int segments, Duration settle, int streamReaders, Clock clock, CascadeRunner cascades,
                      boolean unknownTypesAllowed) {
        if (segments < 1) {
            throw new IllegalArgumentException("segments must be at least 1");
        }
        this.dynamo = dynamo;
        this.table = table;
        this.derivations = derivations;
        this.segments = segments;
        this.history = new StreamHistory(streams, clock, streamReaders);
        this.settle = settle;
        this.streamReaders = streamReaders;
        this.clock = clock;
        this.streams = streams;
        this.cascades = cascades;
        this.unknownTypesAllowed = unknownTypesAllowed;
    }

    /**
     * This rebuilder, taking an open shard as read to its end only once {@code settle} has passed since the scan
     * ended and since its own read began: on AWS a change reaches the stream within about a second, and GetRecords
     * may answer an empty page before a shard's tip; DynamoDB Local's stream is synchronous.
     */
    public Rebuilder withStreamSettle(Duration settle) {
        return new Rebuilder(dynamo, streams, table, derivations, segments, settle, streamReaders, clock, cascades,
                unknownTypesAllowed);
    }

    /**
     * This rebuilder, reading up to {@code readers} shards of the stream at the same time (default
     * {@value #DEFAULT_STREAM_READERS}): the shards of different lines are read side by side, so that the settling
     * times of the open shards overlap.
     */
    public Rebuilder withStreamReaders(int readers) {
        return new Rebuilder(dynamo, streams, table, derivations, segments, settle, readers, clock, cascades,
                unknownTypesAllowed);
    }

    /**
     * This rebuilder, running the cascades a repair finds undone with {@code cascades} (the stream processor's
     * runners, {@code DomainRegistry.cascades}); without, a repair that finds one fails before writing anything.
     */
    public Rebuilder withCascades(CascadeRunner cascades) {
        return new Rebuilder(dynamo, streams, table, derivations, segments, settle, streamReaders, clock,
                Objects.requireNonNull(cascades, "cascades"), unknownTypesAllowed);
    }

    /**
     * This rebuilder, repairing also while the table holds base items of entity types no loaded domain declares, taken
     * as contributing nothing (without it, {@link #repair} refuses: the figures such items feed would be recomputed
     * without them).
     */
    public Rebuilder withUnknownTypesAllowed(boolean allowed) {
        return new Rebuilder(dynamo, streams, table, derivations, segments, settle, streamReaders, clock, cascades,
                allowed);
    }

    /**
     * A repair refused before it wrote anything: the table holds items of entity types no loaded domain declares (a
     * domain's jar left out, most often: its base items, which feed figures a repair would write without them, and its
     * derived items).
     */
    public static final class UnknownEntityTypes extends IllegalStateException {
        private final Map<String, Long> types;

        UnknownEntityTypes(Map<String, Long> types) {
            super("the table holds items of entity types no loaded domain declares: " + types);
            this.types = Map.copyOf(types);
        }

        /** The undeclared entity types, and how many base items of each. */
        public Map<String, Long> types() {
            return types;
        }
    }

    /** Compares the stored derived data that has caught up with the stream with the recomputation. */
    public VerificationReport verify(LongConsumer progress) {
        Recomputed recomputed = recompute(progress, false);
        return report(recomputed, ItemChecks.checks(recomputed.data.expected.items(), recomputed.data.actual,
                recomputed.changes.touches(), recomputed.applied()));
    }

    public VerificationReport verify() {
        return verify(count -> { });
    }

    /**
     * Writes every derived item that differs from the recomputation or is behind the stream with its content at the
     * stream position and the position as its watermarks; returns what it found and did.
     */
    public RepairReport repair(LongConsumer progress) {
        Recomputed recomputed = recompute(progress, true);
        if (!unknownTypesAllowed && (!recomputed.data.unknownTypes.isEmpty()
                || !recomputed.data.undeclaredDerivedTypes.isEmpty())) {
            Map<String, Long> undeclared = new TreeMap<>(recomputed.data.unknownTypes);
            recomputed.data.undeclaredDerivedTypes.forEach((name, count) -> undeclared.merge(name, count, Long::sum));
            throw new UnknownEntityTypes(undeclared);
        }
        VerificationReport found = report(recomputed, ItemChecks.checks(recomputed.data.expected.items(),
                recomputed.data.actual, recomputed.changes.touches(), recomputed.applied()));
        long cascaded = 0;
        List<Cascade> undone = recomputed.data.orphans.undone();
        if (!undone.isEmpty()) {
            for (Cascade cascade : undone) {
                int removed = cascades.run(cascade);
                LOG.info("ran the undone cascade {}: {} items removed", cascade.describe(), removed);
                cascaded += removed;
            }
            // The removals are in the stream now: recompute at a position after them.
            recomputed = recompute(progress, true);
        }
        List<ItemChecks.Check> checks = ItemChecks.checks(recomputed.data.expected.items(), recomputed.data.actual,
                recomputed.changes.touches(), recomputed.applied());
        StreamPosition position = recomputed.position;
        Set<String> unknown = position.hasStream() ? newShards(position, Set.of()) : Set.of();
        RepairWriter writer = new RepairWriter(dynamo, table);
        List<Key> written = new ArrayList<>();
        List<Key> refused = new ArrayList<>();
        List<RepairReport.Failure> failed = new ArrayList<>();
        for (ItemChecks.Check check : checks) {
            if (!check.needsRepair()) {
                continue;
            }
            List<RepairWrite> writes = ItemChecks.repairs(check, position, unknown);
            RepairWriter.Outcome outcome = writer.write(writes);
            switch (outcome.kind()) {
                case WRITTEN -> writes.forEach(write -> written.add(write.key()));
                case REFUSED -> refused.add(check.key());
                case FAILED -> {
                    LOG.error("could not repair {}: {}", check.key(), outcome.failure());
                    failed.add(new RepairReport.Failure(check.key(), outcome.failure()));
                }
            }
        }
        List<Key> uncertain = position.hasStream() ? uncertain(position, unknown, written) : List.of();
        LOG.info("repaired {} derived items at {}; {} refused, {} failed, {} uncertain", written.size(),
                position.describe(), refused.size(), failed.size(), uncertain.size());
        return new RepairReport(found, cascaded, position, written.size(), refused, uncertain, failed);
    }

    private VerificationReport report(Recomputed recomputed, List<ItemChecks.Check> checks) {
        List<Difference> differences = new ArrayList<>();
        long behind = 0;
        for (ItemChecks.Check check : checks) {
            if (check.settled()) {
                differences.addAll(check.differences());
            } else {
                behind++;
            }
        }
        return new VerificationReport(recomputed.data.baseItems, recomputed.data.actual.size(),
                recomputed.data.unknownTypes, recomputed.data.unreadableTypes, recomputed.data.undeclaredDerivedTypes,
                differences, behind, recomputed.position,
                recomputed.data.orphans.undone().stream().map(Cascade::describe).toList());
    }

    /** The shards the stream lists now that the position does not hold, and {@code known} does not either. */
    private Set<String> newShards(StreamPosition position, Set<String> known) {
        Set<String> shards = new HashSet<>();
        for (Shard shard : history.shards(position.streamArn())) {
            shards.add(shard.shardId());
        }
        shards.removeAll(position.shards());
        shards.removeAll(known);
        return shards;
    }

    /**
     * The written items that a shard created after the writes' guards were set has records for: a stream processor
     * may have applied those before the write, which the write would then have overwritten.
     */
    private List<Key> uncertain(StreamPosition position, Set<String> guarded, List<Key> written) {
        Set<String> created = newShards(position, guarded);
        if (created.isEmpty()) {
            return List.of();
        }
        List<Shard> shards = history.shards(position.streamArn()).stream()
                .filter(shard -> created.contains(shard.shardId())).toList();
        // The lineages settled as the engine settles them: a new shard that has applied anything has settled its own.
        StreamChanges changes = new StreamChanges(derivations,
                new SettledLineages(dynamo, table, history.shards(position.streamArn())), new Recomputation(derivations));
        history.read(position.streamArn(), shards, clock.instant(), settle, changes);
        Map<Key, StreamChanges.Touches> touched = changes.touches();
        return written.stream().filter(touched::containsKey).toList();
    }

    /** A recomputation at a stream position. */
    private record Recomputed(Recomputation data, StreamChanges changes, StreamPosition position,
                              AppliedRecords applied) {
    }

    /**
     * The scan, then the stream to its end: derived data at the stream's position, and the stored derived items. A
     * repair ({@code settleLineages}) places each shard's records in the partials of the lineage it settles for the shard
     * ({@link SettledLineages}), so that the engine, reaching the shard later, keeps them there; a verification, which
     * writes nothing, places them by the lineages the cursors record.
     */
    private Recomputed recompute(LongConsumer progress, boolean settleLineages) {
        Instant started = clock.instant();
        Recomputation data = new Recomputation(derivations);
        // The cursors first: a record they show applied is reflected in every item the scan then reads.
        AppliedRecords applied = streams == null ? AppliedRecords.NONE : AppliedRecords.read(dynamo, table);
        scanAll(data, progress);
        String streamArn = currentStream();
        List<Shard> listed = streamArn == null ? List.of() : history.shards(streamArn);
        StreamChanges changes = new StreamChanges(derivations,
                settleLineages ? new SettledLineages(dynamo, table, listed) : applied::lineage, data);
        StreamPosition position = StreamPosition.NONE;
        if (streamArn != null) {
            position = history.read(streamArn, listed, clock.instant().plus(settle), settle, changes);
            if (Duration.between(started, clock.instant()).compareTo(RETENTION_MARGIN) > 0) {
                throw new IllegalStateException("the scan and the stream read took longer than " + RETENTION_MARGIN
                        + ": the stream may have dropped records of changes the scan saw");
            }
            changes.countLastStates();
        }
        LOG.info("recomputed {} base items at {} ({} records)", data.baseItems, position.describe(),
                changes.records());
        return new Recomputed(data, changes, position, applied);
    }

    /** The table's stream, or null when it has none enabled. */
    private String currentStream() {
        if (streams == null) {
            return null;
        }
        TableDescription description = dynamo.describeTable(r -> r.tableName(table)).table();
        StreamSpecification specification = description.streamSpecification();
        boolean enabled = specification != null && Boolean.TRUE.equals(specification.streamEnabled());
        return enabled ? description.latestStreamArn() : null;
    }

    /**
     * A parallel scan, each segment on its own thread, strongly consistent. Pages are classified as they arrive, so
     * memory holds the derived state and 16 bytes per base item ({@link ScannedStates}), not the table.
     */
    private void scanAll(Recomputation data, LongConsumer progress) {
        AtomicLong scanned = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(segments);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int segment = 0; segment < segments; segment++) {
                ScanRequest request = ScanRequest.builder().tableName(table).consistentRead(true)
                        .segment(segment).totalSegments(segments).build();
                futures.add(pool.submit(() -> dynamo.scanPaginator(request).forEach(page -> {
                    // Progress under the same lock: the consumer sees one call at a time, counts only growing.
                    synchronized (data) {
                        page.items().forEach(data::scanned);
                        progress.accept(scanned.addAndGet(page.count()));
                    }
                })));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while scanning " + table, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
