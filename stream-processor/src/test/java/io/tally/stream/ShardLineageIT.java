package io.tally.stream;

import io.tally.core.domain.DomainRegistry;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostRef;
import io.tally.domains.blog.PostStatus;
import io.tally.core.users.User;
import io.tally.domains.catalogue.CatalogueItem;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Records of one item reaching its derived items through different stream shards, in any order. A resharded stream
 * hands an item's records to a parent shard and then to one of its children; Lambda processes a parent before its
 * children, but the engine must not depend on it for documents (and cannot, once a parent's batch is retried after a
 * child went ahead). The test takes the real stream of a workload on DynamoDB Local, splits it into a synthetic parent
 * shard (a prefix) and two children (the rest, split by base item, each keeping stream order), delivers the three in
 * every order of whole shards and in random interleavings of their batches, and requires zero differences from the
 * {@link Rebuilder}. The workload holds, on purpose, a catalogue item modified in the parent and deleted in a child,
 * one deleted and re-created in a child, and a post edited in the parent and soft-deleted in a child.
 */
class ShardLineageIT {
    private static final String PARENT = "shardId-parent";
    private static final String CHILD_A = "shardId-child-a";
    private static final String CHILD_B = "shardId-child-b";
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    private static DynamoDbClient dynamo;
    private static final Map<Long, Lineage> LINEAGES = new LinkedHashMap<>();

    /** A source table and its stream, split into a parent shard and two children. */
    record Lineage(String table, Map<String, List<SourceRecord>> shards) {
    }

    @BeforeAll
    static void start() {
        // Embedded DynamoDB Local: the same engine as the server, without HTTP (no interceptor is needed here).
        dynamo = LocalDynamoDb.client();
    }

    static Stream<Arguments> deliveries() {
        List<Arguments> cases = new ArrayList<>();
        for (long seed = 1; seed <= 3; seed++) {
            for (List<String> order : List.of(
                    List.of(PARENT, CHILD_A, CHILD_B), List.of(PARENT, CHILD_B, CHILD_A),
                    List.of(CHILD_A, PARENT, CHILD_B), List.of(CHILD_B, PARENT, CHILD_A),
                    List.of(CHILD_A, CHILD_B, PARENT), List.of(CHILD_B, CHILD_A, PARENT))) {
                cases.add(Arguments.of(seed, String.join(" > ", order), order, -1L));
            }
            for (long interleaving = 1; interleaving <= 3; interleaving++) {
                cases.add(Arguments.of(seed, "batches interleaved #" + interleaving, List.of(), interleaving));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "seed {0}: {1}")
    @MethodSource("deliveries")
    void anyOrderOfParentAndChildShards_endsExact(long seed, String name, List<String> order, long interleaving) {
        Lineage lineage = lineage(seed);
        String table = copyOfBaseItems(lineage.table(), "lineage-" + seed + "-" + Integer.toHexString(name.hashCode()));
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
        Random random = new Random(seed * 31 + name.hashCode());

        try (Engine engine = Engine.builder()
                .derivations(derivations)
                .store(new DynamoDbDerivedStore(dynamo, table))
                .deadLetters(new DynamoDbDeadLetterSink(dynamo, table))
                .publisher(new RecordingPublisher())
                .build()) {
            if (interleaving < 0) {
                for (String shard : order) {
                    deliver(engine, lineage.shards().get(shard), random);
                }
            } else {
                deliverInterleaved(engine, lineage.shards(), random);
            }
        }

        // From the scan alone: the watermarks name the synthetic shards, not the stream's.
        VerificationReport report = new Rebuilder(dynamo, null, table, derivations, 2).verify();
        assertThat(report.differences()).as("seed %d, %s", seed, name).isEmpty();
        // The cases the test is about did happen, and ended as the base items say.
        assertThat(entry(table, "moved-then-deleted")).doesNotContainKeys("itemId", "title", TableSchema.SELECTOR);
        assertThat(entry(table, "recreated")).containsEntry("title", AttributeValue.fromS("Second life"));
        assertThat(projection(table, "soft-deleted")).containsEntry("status", AttributeValue.fromS("deleted"));
        dynamo.deleteTable(r -> r.tableName(table));
    }

    /** The whole shard, in stream order, in batches of 1 to 10 records. */
    private static void deliver(Engine engine, List<SourceRecord> records, Random random) {
        for (int position = 0; position < records.size(); ) {
            int end = Math.min(records.size(), position + 1 + random.nextInt(10));
            process(engine, records.subList(position, end));
            position = end;
        }
    }

    /** Batches of the three shards in a random interleaving, each shard's own batches in stream order. */
    private static void deliverInterleaved(Engine engine, Map<String, List<SourceRecord>> shards, Random random) {
        Map<String, Integer> positions = new LinkedHashMap<>();
        shards.keySet().forEach(shard -> positions.put(shard, 0));
        while (!positions.isEmpty()) {
            List<String> open = new ArrayList<>(positions.keySet());
            String shard = open.get(random.nextInt(open.size()));
            List<SourceRecord> records = shards.get(shard);
            int position = positions.get(shard);
            int end = Math.min(records.size(), position + 1 + random.nextInt(5));
            process(engine, records.subList(position, end));
            if (end == records.size()) {
                positions.remove(shard);
            } else {
                positions.put(shard, end);
            }
        }
    }

    private static void process(Engine engine, List<SourceRecord> batch) {
        BatchResult result = engine.process(batch);
        assertThat(result.failedSequenceNumber()).as("nothing fails without injected faults").isEmpty();
    }

    /**
     * Writes the workload of a seed to a new table in two phases, reads the stream after each, and splits it: the
     * records of the first phase become the parent shard, those of the second the two children, by base item.
     */
    private static synchronized Lineage lineage(long seed) {
        return LINEAGES.computeIfAbsent(seed, s -> {
            String table = "lineage-source-" + s;
            dynamo.createTable(TableDefinition.createTableRequest(table));
            Workload workload = new Workload(dynamo, table, s, s % 2 == 0 ? 1.1 : 0, false);
            workload.run(40);
            Scenarios scenarios = new Scenarios(table);
            scenarios.inTheParent();
            List<SourceRecord> first = readOneShard(table);
            workload.run(40);
            scenarios.inAChild();
            List<SourceRecord> all = readOneShard(table);
            assertThat(all.subList(0, first.size())).isEqualTo(first);

            Map<String, List<SourceRecord>> shards = new LinkedHashMap<>();
            shards.put(PARENT, new ArrayList<>());
            shards.put(CHILD_A, new ArrayList<>());
            shards.put(CHILD_B, new ArrayList<>());
            for (int i = 0; i < all.size(); i++) {
                SourceRecord record = all.get(i);
                String shard = i < first.size() ? PARENT : childOf(Key.of(record.keys()));
                shards.get(shard).add(moved(record, shard));
            }
            for (String key : List.of(
                    CatalogueKeys.catalogueItem("moved-then-deleted").pk(), CatalogueKeys.catalogueItem("recreated").pk())) {
                assertThat(shards.get(PARENT)).as("parent records of %s", key)
                        .anyMatch(r -> r.keys().get(TableSchema.PK).s().equals(key));
            }
            return new Lineage(table, shards);
        });
    }

    private static List<SourceRecord> readOneShard(String table) {
        Map<String, List<SourceRecord>> stream = StreamReader.readAll(LocalDynamoDb.streamsClient(), table, StreamRecords::fromSdk);
        List<SourceRecord> records = new ArrayList<>();
        // Shard by shard, parents first: one sequence in stream order (DynamoDB Local keeps a table in one shard).
        stream.values().forEach(records::addAll);
        return records;
    }

    /** The child a base item's records go to after the split: a stable function of its key, as in a real split. */
    private static String childOf(Key key) {
        return Math.floorMod((key.pk() + "/" + key.sk()).hashCode(), 2) == 0 ? CHILD_A : CHILD_B;
    }

    private static SourceRecord moved(SourceRecord record, String shard) {
        return new SourceRecord(record.eventId(), record.eventName(), shard, record.sequenceNumber(),
                record.approximateCreationTime(), record.keys(), record.oldImage(), record.newImage());
    }

    /** A table holding the source table's base items (the state the stream leads to), and no derived item yet. */
    private static String copyOfBaseItems(String source, String name) {
        dynamo.createTable(TableDefinition.createTableRequest(name));
        dynamo.scanPaginator(r -> r.tableName(source).consistentRead(true)).items()
                .forEach(item -> dynamo.putItem(r -> r.tableName(name).item(item)));
        return name;
    }

    private static Map<String, AttributeValue> entry(String table, String itemId) {
        return get(table, CatalogueKeys.selectorEntry(itemId));
    }

    private static Map<String, AttributeValue> projection(String table, String postId) {
        return get(table, BlogKeys.postProjection(postId));
    }

    private static Map<String, AttributeValue> get(String table, Key key) {
        return dynamo.getItem(r -> r.tableName(table).key(key.toAttributeMap()).consistentRead(true)).item();
    }

    /** The writes the test is about, as the writer service makes them (revisions from a clock). */
    private static final class Scenarios {
        private final String table;
        private Instant now = T0;
        private CatalogueItem moved;
        private CatalogueItem recreated;
        private Post post;

        Scenarios(String table) {
            this.table = table;
        }

        /** A catalogue item put and replaced, another put, a post created and edited. */
        void inTheParent() {
            moved = putItem(null, "moved-then-deleted", "First", "global-cycle:1");
            moved = putItem(moved, "moved-then-deleted", "Moved", "back-catalogue");
            recreated = putItem(null, "recreated", "First life", "user-cycle:2");
            put(new User("lineage-user", "Lin", "lin@example.com", tick(), now, 1).toItem());
            post = new Post("soft-deleted", "lineage-user", "Draft", "b", PostStatus.CREATED, tick(), now, 1);
            put(new PostRef(post.postId(), post.userId(), post.createdAt()).toItem());
            put(post.toItem());
            post = new Post(post.postId(), post.userId(), "Edited", "b", PostStatus.UPDATED, post.createdAt(), tick(), 2);
            put(post.toItem());
        }

        /** The first item deleted; the second deleted and created again; the post soft-deleted. */
        void inAChild() {
            delete(moved.key());
            delete(recreated.key());
            recreated = putItem(null, "recreated", "Second life", "back-catalogue");
            put(new Post(post.postId(), post.userId(), post.title(), "b", PostStatus.DELETED, post.createdAt(), tick(),
                    3).toItem());
        }

        private CatalogueItem putItem(CatalogueItem previous, String itemId, String title, String selector) {
            Instant at = tick();
            CatalogueItem item = new CatalogueItem(itemId, title, 10, selector, at,
                    CatalogueItem.nextRevision(previous == null ? 0 : previous.revision(), at));
            put(item.toItem());
            return item;
        }

        private Instant tick() {
            now = now.plusMillis(7);
            return now;
        }

        private void put(Map<String, AttributeValue> item) {
            dynamo.putItem(r -> r.tableName(table).item(item));
        }

        private void delete(Key key) {
            dynamo.deleteItem(r -> r.tableName(table).key(key.toAttributeMap()));
        }
    }
}
