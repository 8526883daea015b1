package io.tally.bench;

import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.stream.engine.SourceRecord;
import io.tally.core.derive.CounterRef;
import io.tally.core.domain.Derivations;
import io.tally.core.derive.Document;
import io.tally.core.derive.IntendedChanges;
import io.tally.stream.events.EventPublisher;
import io.tally.stream.events.Unpublished;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The baseline: a stream consumer as AWS samples write one. For each record, in order, one UpdateItem per derived
 * change ({@code ADD} a counter delta, {@code SET}/{@code REMOVE} a document), sent one after another. It uses
 * Tally's own {@link Derivations}, so both processors decide the same changes and only the way of writing them
 * differs: no coalescing, no concurrency, no watermarks, hence no protection against redelivered records. With a
 * publisher, it then publishes the record's domain events, as such a consumer would: one record at a time, after its
 * writes.
 */
final class NaiveProcessor {
    private final DynamoDbClient client;
    private final String table;
    private final Derivations derivations;
    private final EventPublisher publisher;

    NaiveProcessor(DynamoDbClient client, String table, Derivations derivations) {
        this(client, table, derivations, events -> List.of());
    }

    NaiveProcessor(DynamoDbClient client, String table, Derivations derivations, EventPublisher publisher) {
        this.client = client;
        this.table = table;
        this.derivations = derivations;
        this.publisher = publisher;
    }

    void process(List<SourceRecord> batch) {
        for (SourceRecord record : batch) {
            IntendedChanges changes = changes(derivations, record);
            for (UpdateItemRequest request : requests(table, derivations, record, changes)) {
                client.updateItem(request);
            }
            if (!changes.events().isEmpty()) {
                List<Unpublished> failed = publisher.tryPublish(changes.events());
                if (!failed.isEmpty()) {
                    throw new IllegalStateException(failed.size() + " events of record " + record.eventId()
                            + " not published: " + failed.get(0).errorCode());
                }
            }
        }
    }

    /** Records without a derivation or with an unreadable image change nothing, as the engine's poison handling. */
    static IntendedChanges changes(Derivations derivations, SourceRecord record) {
        try {
            Optional<EntityType> type = record.entityType().flatMap(derivations.registry()::entityType);
            if (type.isEmpty()) {
                return IntendedChanges.NONE;
            }
            IntendedChanges changes = derivations.derive(type.get(), record.eventId(), record.oldImage(),
                    record.newImage());
            return changes.isClean() ? changes : IntendedChanges.NONE;
        } catch (RuntimeException e) {
            return IntendedChanges.NONE;
        }
    }

    static List<UpdateItemRequest> requests(String table, Derivations derivations, SourceRecord record) {
        return requests(table, derivations, record, changes(derivations, record));
    }

    private static List<UpdateItemRequest> requests(String table, Derivations derivations, SourceRecord record,
                                                    IntendedChanges changes) {
        List<UpdateItemRequest> requests = new ArrayList<>();
        for (Map.Entry<CounterRef, Long> delta : changes.counterDeltas().entrySet()) {
            CounterRef counter = delta.getKey();
            requests.add(UpdateItemRequest.builder()
                    .tableName(table)
                    .key(derivations.place(counter, record.shardId()).toAttributeMap())
                    .updateExpression("SET #type = if_not_exists(#type, :type) ADD #c :d")
                    .expressionAttributeNames(Map.of("#type", TableSchema.ENTITY_TYPE, "#c", counter.attribute()))
                    .expressionAttributeValues(Map.of(
                            ":type", AttributeValue.fromS(counter.type().name()),
                            ":d", AttributeValue.fromN(Long.toString(delta.getValue()))))
                    .build());
        }
        for (Map.Entry<Key, Document> entry : changes.documents().entrySet()) {
            requests.add(documentRequest(table, entry.getKey(), entry.getValue()));
        }
        return requests;
    }

    private static UpdateItemRequest documentRequest(String table, Key key, Document document) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#type", TableSchema.ENTITY_TYPE);
        values.put(":type", AttributeValue.fromS(document.type().name()));
        List<String> set = new ArrayList<>(List.of("#type = if_not_exists(#type, :type)"));
        int i = 0;
        for (Map.Entry<String, AttributeValue> value : new TreeMap<>(document.values()).entrySet()) {
            names.put("#s" + i, value.getKey());
            values.put(":s" + i, value.getValue());
            set.add("#s" + i + " = :s" + i);
            i++;
        }
        List<String> remove = new ArrayList<>();
        i = 0;
        for (String owned : new TreeSet<>(document.owned())) {
            if (!document.values().containsKey(owned)) {
                names.put("#r" + i, owned);
                remove.add("#r" + i);
                i++;
            }
        }
        String update = "SET " + String.join(", ", set) + (remove.isEmpty() ? "" : " REMOVE " + String.join(", ", remove));
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .updateExpression(update)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build();
    }
}
