package io.tally.local.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.stream.SdkToLambdaRecords;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The poller against the real stream of embedded DynamoDB Local, with a fake function that records what it gets and
 * answers as scripted. What the stream holds is read independently ({@link #streamRecords}) and compared with what
 * the function processed: in order, nothing lost, nothing twice.
 */
class StreamPollerIT {
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Batches are cut as soon as records are read, so that a test sees deterministic batches and needs no waiting. */
    private static final EsmSettings NO_WINDOW = EsmSettings.defaults().withMaximumBatchingWindowInSeconds(0);

    @TempDir
    Path dataDir;

    private String table;
    private String streamArn;
    private CountingStreamsClient streams;
    private JsonLinesFailureDestination failures;
    private final List<StreamPoller> pollers = new ArrayList<>();
    /** Every invocation: the shard and the keys of its records, in the order the function got them. */
    private final List<Invocation> invocations = Collections.synchronizedList(new ArrayList<>());
    /** Shards opened for reading ("open shardId") and invocations ("invoke shardId"), in the order they happened. */
    private final List<String> streamEvents = Collections.synchronizedList(new ArrayList<>());
    /** The eventSourceARN of every record the function got. */
    private final Set<String> eventSourceArns = ConcurrentHashMap.newKeySet();
    /** Sequence numbers of the records the function processed successfully, in order. */
    private final List<String> processed = Collections.synchronizedList(new ArrayList<>());

    private record Invocation(String shardId, List<String> keys) {
    }

    @BeforeEach
    void createTable() {
        table = LocalDynamoDb.createTable("poller");
        streamArn = StreamPoller.latestStreamArn(LocalDynamoDb.client(), table);
        streams = new CountingStreamsClient(LocalDynamoDb.streamsClient(), streamEvents);
        failures = JsonLinesFailureDestination.inDirectory(dataDir);
    }

    @AfterEach
    void closePollers() {
        pollers.forEach(StreamPoller::close);
    }

    @Test
    void backlogLargerThanBatchSize_deliveredOnceInStreamOrderInBatchesOfBatchSize() throws Exception {
        put(1, 250);
        StreamPoller poller = start(NO_WINDOW.withBatchSize(100), handler(records -> null), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(invocations).extracting(invocation -> invocation.keys().size()).containsExactly(100, 100, 50);
        assertThat(eventSourceArns).containsExactly(streamArn);
        PollerSnapshot snapshot = poller.snapshot();
        assertThat(snapshot.invocations()).isEqualTo(3);
        assertThat(snapshot.recordsDelivered()).isEqualTo(250);
        assertThat(snapshot.recordsProcessed()).isEqualTo(250);
        assertThat(snapshot.retries()).isZero();
        assertThat(snapshot.recordsDiscarded()).isZero();
        assertThat(snapshot.shards()).singleElement().satisfies(shard -> {
            assertThat(shard.status()).isEqualTo(PollerSnapshot.ShardStatus.PROCESSING);
            assertThat(shard.checkpoint()).isEqualTo(processed.get(249));
            assertThat(shard.lag()).isZero();
        });
    }

    @Test
    void lag_isTheTimeTheOldestUnprocessedRecordHasWaitedSinceThePollerReadIt_notItsMinuteStamp() throws Exception {
        // A fixed clock far from the stream records' ApproximateCreationDateTime: a lag measured from that stamp
        // (which DynamoDB Local rounds down to the minute) would read as years here.
        Instant readAt = Instant.parse("2030-01-01T00:00:30.250Z");
        MutableClock clock = new MutableClock(readAt);
        java.util.concurrent.CountDownLatch invoked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        // No record age limit: on this clock the records are years old, and the deployment's 23 hours would give
        // them up unprocessed.
        StreamPoller poller = start(NO_WINDOW.withMaximumRecordAgeInSeconds(-1), handler(records -> {
            invoked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }), new InMemoryCheckpointStore(), clock);
        put(1, 1);
        assertThat(invoked.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        clock.set(readAt.plusMillis(7_250));
        assertThat(StreamPollerIT.maxLag(poller.snapshot())).isEqualTo(Duration.ofMillis(7_250));

        release.countDown();
        poller.awaitDrained(DRAIN_TIMEOUT);
        assertThat(StreamPollerIT.maxLag(poller.snapshot())).isZero();
    }

    private static Duration maxLag(PollerSnapshot snapshot) {
        return snapshot.shards().stream().map(PollerSnapshot.ShardProgress::lag).max(Duration::compareTo)
                .orElse(Duration.ZERO);
    }

    @Test
    void recordsWrittenWhilePolling_eachDeliveredOnceAfterTheEarlierOnes() throws Exception {
        StreamPoller poller = start(NO_WINDOW, handler(records -> null), new InMemoryCheckpointStore());
        put(1, 5);
        poller.awaitDrained(DRAIN_TIMEOUT);
        put(6, 9);

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(keysDelivered()).containsExactly("item-1", "item-2", "item-3", "item-4", "item-5", "item-6",
                "item-7", "item-8", "item-9");
    }

    @Test
    void batchingWindow_fullBatchesAvailable_invokedWithoutWaitingForTheWindow() throws Exception {
        put(1, 20);
        // A window of 300 s would outlast the drain timeout if full batches waited for it.
        StreamPoller poller = start(EsmSettings.defaults().withBatchSize(10).withMaximumBatchingWindowInSeconds(300),
                handler(records -> null), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).extracting(invocation -> invocation.keys().size()).containsExactly(10, 10);
    }

    @Test
    void batchingWindow_fewerRecordsThanBatchSize_gatheredIntoOneInvocation() throws Exception {
        put(1, 5);
        StreamPoller poller = start(EsmSettings.defaults().withMaximumBatchingWindowInSeconds(1),
                handler(records -> null), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).extracting(invocation -> invocation.keys().size()).containsExactly(5);
    }

    @Test
    void batchItemFailures_retryStartsAtTheFailedRecordAndEarlierRecordsAreNotRedelivered() throws Exception {
        put(1, 10);
        AtomicBoolean reported = new AtomicBoolean();
        StreamPoller poller = start(NO_WINDOW.withBatchSize(10), handler(records -> {
            if (reported.compareAndSet(false, true)) {
                return failed(records.get(5));
            }
            return null;
        }), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).extracting(Invocation::keys).containsExactly(
                keys(1, 10),
                keys(6, 10));
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(poller.snapshot().retries()).isEqualTo(1);
    }

    @Test
    void handlerThrowsOnAPoisonRecord_bisectsRetriesAndSendsOnlyThatRecordToTheFailureFile() throws Exception {
        put(1, 12);
        StreamPoller poller = start(NO_WINDOW.withBatchSize(8).withMaximumRetryAttempts(3), handler(records -> {
            if (records.stream().anyMatch(record -> key(record).equals("item-3"))) {
                throw new IllegalStateException("item-3 is poison");
            }
            return null;
        }), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).extracting(Invocation::keys).containsExactly(
                keys(1, 8), keys(1, 4), keys(1, 2), keys(3, 4), keys(3, 3), keys(4, 4), keys(5, 8), keys(9, 12));
        List<Record> stream = streamRecords();
        Record poison = stream.get(2);
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(stream.stream()
                .filter(record -> record != poison).toList()));
        JsonNode line = singleFailureLine();
        assertThat(line.at("/requestContext/condition").asText()).isEqualTo("RetryAttemptsExhausted");
        assertThat(line.at("/requestContext/approximateInvokeCount").asInt()).isEqualTo(4);
        assertThat(line.at("/responseContext/functionError").asText()).isEqualTo("Unhandled");
        assertThat(line.at("/DDBStreamBatchInfo/shardId").asText()).isEqualTo(onlyShard().shardId());
        assertThat(line.at("/DDBStreamBatchInfo/startSequenceNumber").asText())
                .isEqualTo(poison.dynamodb().sequenceNumber());
        assertThat(line.at("/DDBStreamBatchInfo/endSequenceNumber").asText())
                .isEqualTo(poison.dynamodb().sequenceNumber());
        assertThat(line.at("/DDBStreamBatchInfo/batchSize").asInt()).isEqualTo(1);
        assertThat(line.at("/DDBStreamBatchInfo/streamArn").asText()).isEqualTo(streamArn);
        assertThat(line.at("/local/errorMessage").asText()).contains("item-3 is poison");
        assertThat(payloadOf(line)).isEqualTo(SdkToLambdaRecords.event(List.of(poison), streamArn));
        PollerSnapshot snapshot = poller.snapshot();
        assertThat(snapshot.batchesDiscarded()).isEqualTo(1);
        assertThat(snapshot.recordsDiscarded()).isEqualTo(1);
        assertThat(snapshot.retries()).isEqualTo(6);
    }

    @Test
    void handlerAlwaysThrowsWithoutBisect_retriesTheWholeBatchThenDiscardsItAndContinues() throws Exception {
        put(1, 5);
        Set<String> failing = Set.of("item-1", "item-2", "item-3");
        StreamPoller poller = start(NO_WINDOW.withBatchSize(3).withMaximumRetryAttempts(2)
                .withBisectBatchOnFunctionError(false), handler(records -> {
                    if (records.stream().anyMatch(record -> failing.contains(key(record)))) {
                        throw new IllegalStateException("down");
                    }
                    return null;
                }), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).extracting(Invocation::keys)
                .containsExactly(keys(1, 3), keys(1, 3), keys(1, 3), keys(4, 5));
        JsonNode line = singleFailureLine();
        assertThat(line.at("/DDBStreamBatchInfo/batchSize").asInt()).isEqualTo(3);
        assertThat(line.at("/requestContext/approximateInvokeCount").asInt()).isEqualTo(3);
        assertThat(line.at("/payload/Records")).extracting(record -> record.at("/dynamodb/Keys/pk/S").asText())
                .containsExactly("item-1", "item-2", "item-3");
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords().subList(3, 5)));
    }

    @Test
    void recordsOlderThanMaximumRecordAge_sentToTheFailureFileWithoutInvokingTheFunction() throws Exception {
        put(1, 3);
        Clock twoDaysLater = Clock.offset(Clock.systemUTC(), Duration.ofDays(2));
        StreamPoller poller = start(NO_WINDOW.withMaximumRecordAgeInSeconds(86_400), handler(records -> null),
                new InMemoryCheckpointStore(), twoDaysLater);

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).isEmpty();
        JsonNode line = singleFailureLine();
        assertThat(line.at("/requestContext/condition").asText()).isEqualTo("RecordAgeExceeded");
        assertThat(line.at("/requestContext/approximateInvokeCount").asInt()).isZero();
        assertThat(line.at("/DDBStreamBatchInfo/batchSize").asInt()).isEqualTo(3);
        assertThat(payloadOf(line)).isEqualTo(SdkToLambdaRecords.event(streamRecords(), streamArn));
        assertThat(poller.snapshot().recordsDiscarded()).isEqualTo(3);
    }

    @Test
    void restartOnTheSameCheckpointFile_deliversOnlyNewRecords_andNeverReadsAFinishedShardAgain() throws Exception {
        RequestHandler<DynamodbEvent, StreamsEventResponse> handler = handler(records -> null);
        put(1, 5);
        StreamPoller first = start(NO_WINDOW, handler, FileCheckpointStore.inDirectory(dataDir));
        first.awaitDrained(DRAIN_TIMEOUT);
        first.close();
        String firstShard = onlyShard().shardId();
        // The shard the first poller read is closed while no poller runs; its child gets the new records.
        LocalDynamoDb.instance().triggerShardRollovers();
        put(6, 8);

        StreamPoller second = start(NO_WINDOW, handler, FileCheckpointStore.inDirectory(dataDir));
        second.awaitDrained(DRAIN_TIMEOUT);
        second.close();

        assertThat(keysDelivered()).containsExactly("item-1", "item-2", "item-3", "item-4", "item-5", "item-6",
                "item-7", "item-8");
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(FileCheckpointStore.inDirectory(dataDir).load(streamArn).get(firstShard).done()).isTrue();

        int invocationsBefore = invocations.size();
        streams.shardIteratorRequests.clear();
        StreamPoller third = start(NO_WINDOW, handler, FileCheckpointStore.inDirectory(dataDir));
        third.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).hasSize(invocationsBefore);
        assertThat(streams.shardIteratorRequests).doesNotContainKey(firstShard);
        assertThat(third.snapshot().shards()).filteredOn(shard -> shard.shardId().equals(firstShard))
                .singleElement().satisfies(shard -> assertThat(shard.status()).isEqualTo(PollerSnapshot.ShardStatus.DONE));
    }

    @Test
    void shardRolloversBeforeStart_eachParentDeliveredCompletelyBeforeItsChild_nothingLostOrDuplicated()
            throws Exception {
        put(1, 12);
        LocalDynamoDb.instance().triggerShardRollovers();
        put(13, 24);
        LocalDynamoDb.instance().triggerShardRollovers();
        put(25, 30);
        StreamPoller poller = start(NO_WINDOW.withBatchSize(4), handler(records -> null), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        List<Shard> shards = describeShards();
        assertThat(shards).hasSize(3);
        assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
        assertThat(shards.get(2).parentShardId()).isEqualTo(shards.get(1).shardId());
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(keysDelivered()).isEqualTo(keys(1, 30));
        // Batches of 4: three of the first shard, three of its child, two of the grandchild, never interleaved.
        List<String> expectedShards = new ArrayList<>();
        expectedShards.addAll(Collections.nCopies(3, shards.get(0).shardId()));
        expectedShards.addAll(Collections.nCopies(3, shards.get(1).shardId()));
        expectedShards.addAll(Collections.nCopies(2, shards.get(2).shardId()));
        assertThat(invocations).extracting(Invocation::shardId).containsExactlyElementsOf(expectedShards);
        // Not by luck of timing: a child is not even opened for reading before its parent's last batch is done.
        for (int child = 1; child < shards.size(); child++) {
            String parentsLastBatch = "invoke " + shards.get(child - 1).shardId();
            String childOpened = "open " + shards.get(child).shardId();
            assertThat(streamEvents.indexOf(childOpened)).isGreaterThan(streamEvents.lastIndexOf(parentsLastBatch));
        }
        assertThat(poller.snapshot().shards()).extracting(PollerSnapshot.ShardProgress::status).containsExactly(
                PollerSnapshot.ShardStatus.DONE, PollerSnapshot.ShardStatus.DONE, PollerSnapshot.ShardStatus.PROCESSING);
    }

    @Test
    void shardRolloverWhilePolling_childFoundAndDeliveredAfterTheParent() throws Exception {
        StreamPoller poller = start(NO_WINDOW, handler(records -> null), new InMemoryCheckpointStore());
        put(1, 6);
        poller.awaitDrained(DRAIN_TIMEOUT);
        LocalDynamoDb.instance().triggerShardRollovers();
        put(7, 12);

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(describeShards()).hasSize(2);
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(keysDelivered()).isEqualTo(keys(1, 12));
    }

    @Test
    void iteratorExpiresMidShard_readingResumesAfterTheLastRecordRead() throws Exception {
        StreamPoller poller = start(NO_WINDOW.withBatchSize(3), handler(records -> null), new InMemoryCheckpointStore());
        put(1, 4);
        poller.awaitDrained(DRAIN_TIMEOUT);
        streams.expireNextGetRecords.set(true);
        put(5, 8);

        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(streams.expireNextGetRecords).isFalse();
        assertThat(processed).containsExactlyElementsOf(sequenceNumbers(streamRecords()));
        assertThat(keysDelivered()).isEqualTo(keys(1, 8));
    }

    @Test
    void filterCriteria_recordsNoFilterMatches_passedOverBeforeBatching_andTheCheckpointMovesPastThem()
            throws Exception {
        // The deployment's filter: the echo of our own writes is dropped; base items and poison are delivered.
        putTyped("item-1", "Post");
        putTyped("item-2", "UserStats");
        putTyped("item-3", null);
        putTyped("item-4", "ShardCursor");
        putTyped("item-5", "Comment");
        StreamPoller poller = start(NO_WINDOW.withBatchSize(2), handler(records -> null), new InMemoryCheckpointStore());

        poller.awaitDrained(DRAIN_TIMEOUT);

        // Batches of two delivered records: the filter runs before batching.
        assertThat(invocations).extracting(Invocation::keys)
                .containsExactly(List.of("item-1", "item-3"), List.of("item-5"));
        assertThat(poller.snapshot().recordsFiltered()).isEqualTo(2);
        assertThat(poller.snapshot().recordsDelivered()).isEqualTo(3);

        // Only echoes: nothing is invoked, and the shard's position still moves past them.
        putTyped("item-6", "DeadLetter");
        putTyped("item-7", "UserStats");
        poller.awaitDrained(DRAIN_TIMEOUT);

        assertThat(invocations).hasSize(2);
        assertThat(poller.snapshot().recordsFiltered()).isEqualTo(4);
        List<Record> all = streamRecords();
        assertThat(poller.snapshot().shards()).singleElement().satisfies(shard ->
                assertThat(shard.checkpoint()).isEqualTo(all.get(all.size() - 1).dynamodb().sequenceNumber()));
    }

    @Test
    void tumblingWindowHandler_getsTheShardIdAndTheStateOfItsPreviousResponseInTheSameWindow() throws Exception {
        put(1, 10);
        List<DynamodbTimeWindowEvent> events = Collections.synchronizedList(new ArrayList<>());
        RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> counter = (event, context) -> {
            events.add(event);
            Map<String, String> state = new HashMap<>(event.getState());
            int count = Integer.parseInt(state.getOrDefault("count", "0")) + event.getRecords().size();
            state.put("count", Integer.toString(count));
            return TimeWindowEventResponse.builder().withState(state).build();
        };
        EsmSettings settings = NO_WINDOW.withBatchSize(3);
        StreamPoller poller = startWith(settings, new TumblingWindowBatchInvoker("tally-window", streamArn,
                settings.tumblingWindow(), counter), new InMemoryCheckpointStore(), Clock.systemUTC());

        poller.awaitDrained(DRAIN_TIMEOUT);

        String shardId = onlyShard().shardId();
        assertThat(events).allSatisfy(event -> {
            assertThat(event.getShardId()).isEqualTo(shardId);
            assertThat(event.getEventSourceArn()).isEqualTo(streamArn);
            Instant start = Instant.parse(event.getWindow().getStart());
            assertThat(Duration.between(start, Instant.parse(event.getWindow().getEnd()))).hasSeconds(60);
            assertThat(event.getRecords()).allSatisfy(record -> assertThat(
                    record.getDynamodb().getApproximateCreationDateTime().toInstant()).isBetween(start,
                    start.plusSeconds(59)));
        });
        // Stream records are timestamped to the minute by DynamoDB Local, so the writes may straddle two windows:
        // the state restarts empty with each window and adds up within it.
        Map<String, Integer> countPerWindow = new HashMap<>();
        for (DynamodbTimeWindowEvent event : events) {
            int before = countPerWindow.getOrDefault(event.getWindow().getStart(), 0);
            if (before == 0) {
                assertThat(event.getState()).isEmpty();
            } else {
                assertThat(event.getState()).containsExactly(Map.entry("count", Integer.toString(before)));
            }
            countPerWindow.put(event.getWindow().getStart(), before + event.getRecords().size());
        }
        assertThat(events).flatExtracting(DynamodbEvent::getRecords)
                .extracting(record -> record.getDynamodb().getSequenceNumber())
                .containsExactlyElementsOf(sequenceNumbers(streamRecords()));
    }

    // --- the function -------------------------------------------------------------------------------------------

    /**
     * A stream handler that answers as {@code script} says (null: success; a response; or it throws) and records
     * which records it processed: all of them, or those before the lowest reported failure.
     */
    private RequestHandler<DynamodbEvent, StreamsEventResponse> handler(
            Function<List<DynamodbStreamRecord>, StreamsEventResponse> script) {
        return (event, context) -> {
            List<DynamodbStreamRecord> records = event.getRecords();
            records.forEach(record -> eventSourceArns.add(record.getEventSourceARN()));
            StreamsEventResponse response = script.apply(records);
            int done = records.size();
            if (response != null && response.getBatchItemFailures() != null) {
                for (StreamsEventResponse.BatchItemFailure failure : response.getBatchItemFailures()) {
                    for (int i = 0; i < records.size(); i++) {
                        if (records.get(i).getDynamodb().getSequenceNumber().equals(failure.getItemIdentifier())) {
                            done = Math.min(done, i);
                        }
                    }
                }
            }
            records.subList(0, done).forEach(record -> processed.add(record.getDynamodb().getSequenceNumber()));
            return response;
        };
    }

    private static StreamsEventResponse failed(DynamodbStreamRecord record) {
        return new StreamsEventResponse(List.of(
                new StreamsEventResponse.BatchItemFailure(record.getDynamodb().getSequenceNumber())));
    }

    private static String key(DynamodbStreamRecord record) {
        return record.getDynamodb().getKeys().get("pk").getS();
    }

    private StreamPoller start(EsmSettings settings, RequestHandler<DynamodbEvent, StreamsEventResponse> handler,
            CheckpointStore checkpoints) {
        return start(settings, handler, checkpoints, Clock.systemUTC());
    }

    private StreamPoller start(EsmSettings settings, RequestHandler<DynamodbEvent, StreamsEventResponse> handler,
            CheckpointStore checkpoints, Clock clock) {
        return startWith(settings, new LambdaBatchInvoker("tally-stream", streamArn, handler), checkpoints, clock);
    }

    private StreamPoller startWith(EsmSettings settings, BatchInvoker invoker, CheckpointStore checkpoints,
            Clock clock) {
        BatchInvoker recording = (shardId, records) -> {
            invocations.add(new Invocation(shardId, records.stream()
                    .map(record -> record.dynamodb().keys().get("pk").s()).toList()));
            InvocationResult result = invoker.invoke(shardId, records);
            streamEvents.add("invoke " + shardId);
            return result;
        };
        StreamPoller poller = StreamPoller.builder()
                .streamsClient(streams)
                .streamArn(streamArn)
                .invoker(recording)
                .failureDestination(failures)
                .settings(settings)
                .checkpointStore(checkpoints)
                .functionName("tally-stream")
                .clock(clock)
                .pollInterval(Duration.ofMillis(10))
                .discoveryInterval(Duration.ofMillis(100))
                .retryBackoff(Duration.ZERO, Duration.ZERO)
                .shutdownTimeout(Duration.ofSeconds(5))
                .build();
        pollers.add(poller);
        poller.start();
        return poller;
    }

    // --- the table and its stream -------------------------------------------------------------------------------

    /** Items item-from .. item-to, one PutItem each, so that the stream holds them in that order. */
    private void put(int from, int to) {
        for (int n = from; n <= to; n++) {
            Map<String, AttributeValue> item = Map.of(
                    "pk", AttributeValue.fromS("item-" + n),
                    "sk", AttributeValue.fromS("v"),
                    "n", AttributeValue.fromN(Integer.toString(n)));
            LocalDynamoDb.client().putItem(request -> request.tableName(table).item(item));
        }
    }

    /** One item with this entity type attribute (none when null), one PutItem. */
    private void putTyped(String pk, String entityType) {
        Map<String, AttributeValue> item = new HashMap<>(Map.of(
                "pk", AttributeValue.fromS(pk),
                "sk", AttributeValue.fromS("v")));
        if (entityType != null) {
            item.put("entityType", AttributeValue.fromS(entityType));
        }
        LocalDynamoDb.client().putItem(request -> request.tableName(table).item(item));
    }

    private static List<String> keys(int from, int to) {
        List<String> keys = new ArrayList<>();
        for (int n = from; n <= to; n++) {
            keys.add("item-" + n);
        }
        return keys;
    }

    private List<String> keysDelivered() {
        return invocations.stream().flatMap(invocation -> invocation.keys().stream()).toList();
    }

    private List<Shard> describeShards() {
        return LocalDynamoDb.streamsClient().describeStream(request -> request.streamArn(streamArn))
                .streamDescription().shards();
    }

    private Shard onlyShard() {
        List<Shard> shards = describeShards();
        assertThat(shards).hasSize(1);
        return shards.get(0);
    }

    /** Every record the stream holds, shard by shard in the order DynamoDB lists them (parents first). */
    private List<Record> streamRecords() {
        DynamoDbStreamsClient client = LocalDynamoDb.streamsClient();
        List<Record> records = new ArrayList<>();
        for (Shard shard : describeShards()) {
            String iterator = client.getShardIterator(request -> request.streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (iterator != null) {
                String current = iterator;
                GetRecordsResponse response = client.getRecords(request -> request.shardIterator(current));
                records.addAll(response.records());
                iterator = response.records().isEmpty() ? null : response.nextShardIterator();
            }
        }
        return records;
    }

    private static List<String> sequenceNumbers(List<Record> records) {
        return records.stream().map(record -> record.dynamodb().sequenceNumber()).toList();
    }

    private JsonNode singleFailureLine() throws IOException {
        List<String> lines = Files.readAllLines(failures.file());
        assertThat(lines).hasSize(1);
        return JSON.readTree(lines.get(0));
    }

    /** The payload of a failure record, read as the Lambda runtime reads an event. */
    private DynamodbEvent payloadOf(JsonNode line) throws IOException {
        Path event = dataDir.resolve("payload-" + System.nanoTime() + ".json");
        Files.writeString(event, line.get("payload").toString());
        return EventLoader.loadDynamoDbEvent(event.toString());
    }

    /** DynamoDB Local's stream client, counting iterator requests per shard and expiring an iterator on request. */
    private static final class CountingStreamsClient implements DynamoDbStreamsClient {
        private final DynamoDbStreamsClient delegate;
        private final List<String> events;
        final Map<String, AtomicInteger> shardIteratorRequests = new ConcurrentHashMap<>();
        final AtomicBoolean expireNextGetRecords = new AtomicBoolean();

        CountingStreamsClient(DynamoDbStreamsClient delegate, List<String> events) {
            this.delegate = delegate;
            this.events = events;
        }

        @Override
        public DescribeStreamResponse describeStream(DescribeStreamRequest request) {
            return delegate.describeStream(request);
        }

        @Override
        public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
            shardIteratorRequests.computeIfAbsent(request.shardId(), shard -> new AtomicInteger()).incrementAndGet();
            events.add("open " + request.shardId());
            return delegate.getShardIterator(request);
        }

        @Override
        public GetRecordsResponse getRecords(GetRecordsRequest request) {
            if (expireNextGetRecords.compareAndSet(true, false)) {
                throw ExpiredIteratorException.builder().message("Iterator expired (injected by the test)").build();
            }
            return delegate.getRecords(request);
        }

        @Override
        public String serviceName() {
            return delegate.serviceName();
        }

        @Override
        public void close() {
            // The embedded DynamoDB Local outlives the test.
        }
    }
}
