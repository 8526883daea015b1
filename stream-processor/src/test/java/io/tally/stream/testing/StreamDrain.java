package io.tally.stream.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.SharedReads;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.events.EventPublisher;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.StreamReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Feeds a table's real stream (DynamoDB Local) to an engine, shard by shard, each record once unless handed again: for
 * tests of what the engine does on a table, cascades included (whose own records reach the stream in turn).
 */
public final class StreamDrain implements AutoCloseable {
    private final DynamoDbClient dynamo;
    private final String table;
    private final Engine engine;
    private final Set<String> processed = new HashSet<>();

    public StreamDrain(DynamoDbClient dynamo, String table, Engine engine) {
        this.dynamo = dynamo;
        this.table = table;
        this.engine = engine;
    }

    /** An engine of these derivations and the application's cascades over the table, publishing to {@code publisher}. */
    public static StreamDrain withEngine(DynamoDbClient dynamo, String table, Derivations derivations,
                                         EventPublisher publisher) {
        return new StreamDrain(dynamo, table, Engine.builder()
                .derivations(derivations)
                .store(new DynamoDbDerivedStore(dynamo, table))
                .deadLetters(new InMemoryDeadLetterSink())
                .publisher(publisher)
                .cascades(CascadeRunner.overTable(dynamo, table))
                .build());
    }

    @Override
    public void close() {
        engine.close();
    }

    /** Processes the stream until the cascades' own records are processed too; returns what the first round did. */
    public List<SourceRecord> drain() {
        List<SourceRecord> first = null;
        for (List<SourceRecord> next = newRecords(); !next.isEmpty(); next = newRecords()) {
            process(next);
            first = first == null ? next : first;
        }
        return first == null ? List.of() : first;
    }

    /** The records not processed yet. */
    public List<SourceRecord> newRecords() {
        List<SourceRecord> fresh = new ArrayList<>();
        StreamReader.readAll(LocalDynamoDb.streamsClient(), table, StreamRecords::fromSdk).values()
                .forEach(records -> records.stream().filter(r -> !processed.contains(r.eventId())).forEach(fresh::add));
        return fresh;
    }

    /** Marks the records not processed yet as processed without processing them: no stream processor saw them. */
    public void skip() {
        newRecords().forEach(r -> processed.add(r.eventId()));
    }

    /** Processes these records (again, if they were), one batch per shard; every batch must succeed. */
    public void process(List<SourceRecord> records) {
        Map<String, List<SourceRecord>> byShard = new LinkedHashMap<>();
        records.forEach(r -> byShard.computeIfAbsent(r.shardId(), s -> new ArrayList<>()).add(r));
        for (List<SourceRecord> shard : byShard.values()) {
            BatchResult result = engine.process(shard);
            assertThat(result.failedSequenceNumber()).isEmpty();
        }
        records.forEach(r -> processed.add(r.eventId()));
    }

    /** A counter of an item, read consistently; 0 when the item or the counter is not there. */
    public long counter(Key key, String attribute) {
        // As readers read it: the item whole, with the per-shard partials of a shared one summed.
        Map<String, AttributeValue> item = SharedReads.whole(dynamo, table, key, null);
        return item == null || !item.containsKey(attribute) ? 0 : Items.number(item, attribute);
    }
}
