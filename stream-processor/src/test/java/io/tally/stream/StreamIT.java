package io.tally.stream;

import io.tally.core.users.Users;
import static io.tally.stream.testing.TestDerivations.comparable;
import static io.tally.stream.testing.TestDerivations.recompute;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableDefinition;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostRef;
import io.tally.domains.blog.PostStatus;
import io.tally.core.users.User;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.stream.testing.TestRecords;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The whole path against DynamoDB Local: base items written as the writer service writes them, the table's real
 * stream read with the Streams API, the engine writing derived items back into the same table.
 */
class StreamIT {
    private static final Instant T = TestRecords.T0;

    @Test
    void blogWrites_realStreamInBatches_derivedItemsEqualRecomputation_andReprocessingChangesNothing() {
        DynamoDbClient client = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("stream-it");
        writeBlog(client, table);
        RecordingPublisher publisher = new RecordingPublisher();
        InMemoryDeadLetterSink deadLetters = new InMemoryDeadLetterSink();

        try (Engine engine = engine(TestDerivations.blog(), client, table, publisher, deadLetters)) {
            Map<String, List<SourceRecord>> stream = StreamReader.readAll(LocalDynamoDb.streamsClient(), table,
                    StreamRecords::fromSdk);
            stream.values().forEach(records -> processInBatches(engine, records, 7));

            Map<Key, Map<String, AttributeValue>> derived = derivedItems(client, table);
            assertThat(comparable(derived)).isEqualTo(recompute(TestDerivations.blog(), baseItems(client, table)));
            assertThat(comparable(derived).get(Users.statsKey("u1"))).containsEntry("posts", AttributeValue.fromN("1"))
                    .containsEntry("comments", AttributeValue.fromN("1"));
            assertThat(derived.get(BlogKeys.postProjection("p1"))).containsEntry("comments", AttributeValue.fromN("1"))
                    .containsEntry("status", AttributeValue.fromS("updated"));
            assertThat(deadLetters.letters()).isEmpty();

            // The stream again, now with the echoes of the derived writes, in other batch sizes, and a retry
            // from the middle: nothing changes, not even a watermark.
            Map<String, List<SourceRecord>> again = StreamReader.readAll(LocalDynamoDb.streamsClient(), table,
                    StreamRecords::fromSdk);
            again.values().forEach(records -> processInBatches(engine, records, 3));
            again.values().forEach(records -> processInBatches(engine, records.subList(records.size() / 2,
                    records.size()), 100));

            assertThat(derivedItems(client, table)).isEqualTo(derived);
        }
    }

    @Test
    void thousandRecordsOverFiftyUsers_oneBatch_oneWritePerUser() {
        AtomicInteger updates = new AtomicInteger();
        ExecutionInterceptor countUpdates = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof UpdateItemRequest) {
                    updates.incrementAndGet();
                }
            }
        };
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            DynamoDbClient client = server.client(countUpdates);
            client.createTable(TableDefinition.createTableRequest("tally"));
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            List<Post> posts = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Post post = TestRecords.post(userId(i % 50), "p" + i, "Post " + i, PostStatus.CREATED);
                posts.add(post);
                items.add(post.toItem());
            }
            for (int i = 0; i < 800; i++) {
                Post post = posts.get(i % posts.size());
                items.add(new Comment("c" + i, post.postId(), post.userId(), post.createdAt(), userId((i * 7) % 50),
                        "text", T.plusSeconds(i)).toItem());
            }
            batchWrite(client, "tally", items);
            Map<String, List<SourceRecord>> stream = StreamReader.readAll(server.streamsClient(), "tally",
                    StreamRecords::fromSdk);
            List<SourceRecord> records = stream.values().stream().flatMap(List::stream).toList();
            assertThat(stream).hasSize(1);
            assertThat(records).hasSize(1000);

            try (Engine engine = engine(TestDerivations.userTotals(), client, "tally", new RecordingPublisher(),
                    new InMemoryDeadLetterSink())) {
                BatchResult result = engine.process(records);

                assertThat(result.failedSequenceNumber()).isEmpty();
                assertThat(result.derivedWrites()).isEqualTo(50);
            }

            // 1,000 records, 50 derived items: 50 requests, where one per record would be 1,000 or more.
            assertThat(updates.get()).isEqualTo(50);
            Map<Key, Map<String, AttributeValue>> derived = derivedItems(client, "tally");
            assertThat(derived).hasSize(50);
            assertThat(derived.values()).allSatisfy(stats -> assertThat(stats)
                    .containsEntry("posts", AttributeValue.fromN("4"))
                    .containsEntry("comments", AttributeValue.fromN("16")));
        }
    }

    private static String userId(int n) {
        return String.format("u%02d", n);
    }

    private static Engine engine(Derivations derivations, DynamoDbClient client, String table,
                                 RecordingPublisher publisher, InMemoryDeadLetterSink deadLetters) {
        return Engine.builder()
                .derivations(derivations)
                .store(new DynamoDbDerivedStore(client, table))
                .deadLetters(deadLetters)
                .publisher(publisher)
                .build();
    }

    private static void processInBatches(Engine engine, List<SourceRecord> records, int size) {
        for (int from = 0; from < records.size(); from += size) {
            BatchResult result = engine.process(records.subList(from, Math.min(records.size(), from + size)));
            assertThat(result.failedSequenceNumber()).as("batch at %d", from).isEmpty();
        }
    }

    /** The writes of the blog scenario, as the writer service makes them (transactions, updates, deletes). */
    private static void writeBlog(DynamoDbClient client, String table) {
        for (String userId : List.of("u1", "u2", "u3")) {
            put(client, table, new User(userId, "User " + userId, userId + "@example.com", T, T, 1).toItem());
        }
        Post p1 = TestRecords.post("u1", "p1", "Single-table design", PostStatus.CREATED);
        Post p2 = TestRecords.post("u1", "p2", "Streams", PostStatus.CREATED);
        Post p3 = TestRecords.post("u2", "p3", "Indexes", PostStatus.CREATED);
        for (Post post : List.of(p1, p2, p3)) {
            // A post and its id reservation in one transaction, as the writer creates them.
            client.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
                    TransactWriteItem.builder().put(Put.builder().tableName(table).item(post.toItem()).build()).build(),
                    TransactWriteItem.builder().put(Put.builder().tableName(table)
                            .item(new PostRef(post.postId(), post.userId(), post.createdAt()).toItem()).build()).build())
                    .build());
        }
        Comment c1 = TestRecords.comment("c1", p1, "u2");
        Comment c2 = TestRecords.comment("c2", p1, "u3");
        Comment c3 = TestRecords.comment("c3", p3, "u1");
        for (Comment comment : List.of(c1, c2, c3)) {
            put(client, table, comment.toItem());
        }
        client.updateItem(UpdateItemRequest.builder().tableName(table).key(p1.key().toAttributeMap())
                .updateExpression("SET #title = :title, #status = :status, #version = :version")
                .expressionAttributeNames(Map.of("#title", "title", "#status", "status", "#version", "version"))
                .expressionAttributeValues(Map.of(":title", Items.s("Single-table design, part 1"),
                        ":status", Items.s(PostStatus.UPDATED.value()), ":version", Items.n(2)))
                .build());
        client.updateItem(UpdateItemRequest.builder().tableName(table).key(p2.key().toAttributeMap())
                .updateExpression("SET #status = :status")
                .expressionAttributeNames(Map.of("#status", "status"))
                .expressionAttributeValues(Map.of(":status", Items.s(PostStatus.DELETED.value())))
                .build());
        client.deleteItem(DeleteItemRequest.builder().tableName(table).key(c1.key().toAttributeMap()).build());
    }

    private static void put(DynamoDbClient client, String table, Map<String, AttributeValue> item) {
        client.putItem(PutItemRequest.builder().tableName(table).item(item).build());
    }

    private static void batchWrite(DynamoDbClient client, String table, List<Map<String, AttributeValue>> items) {
        for (int from = 0; from < items.size(); from += 25) {
            List<WriteRequest> writes = items.subList(from, Math.min(items.size(), from + 25)).stream()
                    .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
                    .toList();
            Map<String, List<WriteRequest>> pending = Map.of(table, writes);
            while (!pending.isEmpty()) {
                pending = client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(pending).build())
                        .unprocessedItems();
            }
        }
    }

    private static List<Map<String, AttributeValue>> scan(DynamoDbClient client, String table) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        client.scanPaginator(ScanRequest.builder().tableName(table).consistentRead(true).build())
                .items().forEach(items::add);
        return items;
    }

    private static List<Map<String, AttributeValue>> baseItems(DynamoDbClient client, String table) {
        return scan(client, table).stream().filter(item -> !DomainRegistry.load().entityType(Items.entityTypeName(item)).orElseThrow().isDerived()).toList();
    }

    private static Map<Key, Map<String, AttributeValue>> derivedItems(DynamoDbClient client, String table) {
        Map<Key, Map<String, AttributeValue>> derived = new HashMap<>();
        for (Map<String, AttributeValue> item : scan(client, table)) {
            if (DomainRegistry.load().entityType(Items.entityTypeName(item)).orElseThrow().isDerived()) {
                derived.put(Key.of(item), item);
            }
        }
        return derived;
    }
}
