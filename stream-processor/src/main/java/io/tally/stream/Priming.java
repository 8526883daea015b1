package io.tally.stream;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.store.SdkPriming;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.User;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.InMemoryDerivedStore;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.events.EventBridgePublisher;
import io.tally.stream.events.PutEventsEntries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.crac.Core;
import org.crac.Resource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * SnapStart priming of the stream functions: before Lambda takes the snapshot, a small synthetic batch (a user
 * inserted and renamed, the shared kernel every domain builds on) goes through what a real batch goes through, the
 * Lambda record conversion, the derivations, coalescing, the watermark writes and a PutEvents entry (its JSON), so
 * that the snapshot holds those classes loaded and initialized; then the function's DynamoDB client reads a key no
 * item has ({@link SdkPriming}), which primes the SDK's request path (marshalling, signing, the HTTP client). It runs on its own engine over an in-memory store, with a publisher that
 * builds the entries without sending them: nothing reaches DynamoDB or EventBridge, and the function's own meters
 * are untouched. Without SnapStart (no checkpoint) it never runs.
 */
final class Priming implements Resource {
    static final String SHARD = "shardId-priming";
    private static final String BUS = "priming";

    private final ShardSettings settings;
    private final BooleanSupplier primeTable;

    Priming(ShardSettings settings) {
        this(settings, () -> false);
    }

    /** @param primeTable primes the function's DynamoDB client's request path ({@link SdkPriming}), after the batch */
    Priming(ShardSettings settings, BooleanSupplier primeTable) {
        this.settings = settings;
        this.primeTable = primeTable;
    }

    /**
     * Registers a priming with the global CRaC context. The caller keeps the returned object: a context need not
     * hold its resources strongly.
     */
    static Priming register(ShardSettings settings, BooleanSupplier primeTable) {
        Priming priming = new Priming(settings, primeTable);
        Core.getGlobalContext().register(priming);
        return priming;
    }

    /** Processes the synthetic batch; returns the engine's result (two records, events published to nowhere). */
    BatchResult prime() {
        List<SourceRecord> records = new ArrayList<>();
        for (DynamodbEvent.DynamodbStreamRecord record : records()) {
            records.add(StreamRecords.fromLambda(SHARD, record));
        }
        try (Engine engine = Engine.builder()
                .derivations(DomainRegistry.load().derivations(settings))
                .store(new InMemoryDerivedStore())
                .deadLetters(new InMemoryDeadLetterSink())
                .publisher(events -> {
                    events.forEach(event -> PutEventsEntries.entry(event, BUS, StreamWiring.DEFAULT_EVENT_SOURCE));
                    return List.of();
                })
                .build()) {
            // A user announces no event: the entry of one is built here, so that its JSON is primed too.
            PutEventsEntries.entry(new DomainEvent("priming:Primed:user-priming", "Primed",
                    Map.of("eventId", "priming:Primed:user-priming")), BUS, StreamWiring.DEFAULT_EVENT_SOURCE);
            return engine.process(records);
        }
    }

    /** A user inserted, then renamed: Lambda stream records as the event source mapping sends them. */
    static List<DynamodbEvent.DynamodbStreamRecord> records() {
        Instant at = Instant.parse("2024-01-01T00:00:00Z");
        User user = new User("user-priming", "Priming", "priming@example.com", at, at, 1);
        User renamed = new User(user.userId(), "Primed", user.email(), at, at.plusSeconds(1), 2);
        return List.of(change("1", "INSERT", user.key().toAttributeMap(), null, user.toItem(), at),
                change("2", "MODIFY", user.key().toAttributeMap(), user.toItem(), renamed.toItem(), at));
    }

    private static DynamodbEvent.DynamodbStreamRecord change(String sequence, String name,
                                                            Map<String, AttributeValue> keys,
                                                            Map<String, AttributeValue> oldItem,
                                                            Map<String, AttributeValue> item, Instant at) {
        DynamodbEvent.DynamodbStreamRecord record = new DynamodbEvent.DynamodbStreamRecord();
        record.setEventID("priming-" + sequence);
        record.setEventName(name);
        record.setEventSource("aws:dynamodb");
        record.setDynamodb(new StreamRecord()
                .withKeys(SdkToLambdaRecords.item(keys))
                .withOldImage(oldItem == null ? null : SdkToLambdaRecords.item(oldItem))
                .withNewImage(SdkToLambdaRecords.item(item))
                .withSequenceNumber(sequence)
                .withApproximateCreationDateTime(Date.from(at))
                .withStreamViewType(StreamViewType.NEW_AND_OLD_IMAGES));
        return record;
    }

    @Override
    public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
        try {
            prime();
            primeTable.getAsBoolean();
        } catch (RuntimeException e) {
            // Priming only saves time after a restore; a failure must not fail publishing the version.
            System.err.println("SnapStart priming of the stream function failed: " + e);
        }
    }

    @Override
    public void afterRestore(org.crac.Context<? extends Resource> context) {
        // Nothing to refresh: the clients reconnect on their own.
    }
}
