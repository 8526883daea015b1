package io.tally.local;

import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndexes;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

/**
 * The table in DynamoDB Local: created from Tally's one definition unless it exists, awaited until it is active,
 * and, when a data directory kept it from an earlier version, checked for indexes that drifted from the definition.
 */
final class TableSetup {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRunner.class);
    private static final Duration TABLE_READY_TIMEOUT = Duration.ofSeconds(30);

    private TableSetup() {
    }

    static DynamoDbClient adminClient(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                // DynamoDB Local (with -sharedDb) ignores credentials but rejects key ids other than letters/digits.
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /**
     * Creates the table with the indexes the domains declare ({@link TableIndexes}, those of {@code --domain-jar}
     * included) unless it exists, and adds a global index a domain declares that an existing table lacks; returns
     * whether it created it.
     */
    static boolean ensureTable(DynamoDbClient dynamo, String table, DomainRegistry domains) {
        CreateTableRequest definition = TableIndexes.createTableRequest(domains, table);
        boolean created;
        try {
            TableDescription existing = dynamo.describeTable(r -> r.tableName(table)).table();
            localIndexDrift(existing, definition).ifPresent(drift -> {
                throw new StartupException(drift);
            });
            for (GlobalSecondaryIndex index : missingGlobalIndexes(existing, definition)) {
                LOG.info("table {} predates the index {}: adding it", table, index.indexName());
                dynamo.updateTable(addIndex(definition, index));
                awaitActive(dynamo, table);
            }
            warnIfIndexesDiffer(dynamo.describeTable(r -> r.tableName(table)).table(), definition);
            created = false;
        } catch (ResourceNotFoundException e) {
            try {
                dynamo.createTable(definition);
                created = true;
            } catch (ResourceInUseException raced) {
                created = false;
            }
        }
        awaitActive(dynamo, table);
        return created;
    }

    /**
     * Creates the subscriber example's feed table ({@link io.tally.core.activity.ActivityFeed}) unless it exists.
     * DynamoDB Local keeps its TTL setting but never expires an item, so locally the feed only grows.
     */
    static void ensureActivityTable(DynamoDbClient dynamo, String table) {
        ensureSideTable(dynamo, io.tally.core.activity.ActivityFeed.createTable(table));
    }

    /**
     * Creates the writers' write quota table ({@code DynamoDbWriteQuota}) unless it exists: one small item per caller
     * who ever wrote, which DynamoDB Local keeps (it expires none).
     */
    static void ensureQuotaTable(DynamoDbClient dynamo, String table) {
        ensureSideTable(dynamo, io.tally.core.quota.DynamoDbWriteQuota.createTable(table));
    }

    /** A table beside the main one, created as {@code request} says unless it exists; waited for either way. */
    private static void ensureSideTable(DynamoDbClient dynamo,
                                        software.amazon.awssdk.services.dynamodb.model.CreateTableRequest request) {
        try {
            dynamo.describeTable(r -> r.tableName(request.tableName()));
        } catch (ResourceNotFoundException e) {
            try {
                dynamo.createTable(request);
            } catch (ResourceInUseException raced) {
                // Created meanwhile: what was wanted.
            }
        }
        awaitActive(dynamo, request.tableName());
    }

    /**
     * The DynamoDB waiter polls every 20 seconds, made for AWS; DynamoDB Local is ready in milliseconds, and a
     * slow start-up would tempt people to skip the runner.
     */
    private static void awaitActive(DynamoDbClient dynamo, String table) {
        long deadline = System.nanoTime() + TABLE_READY_TIMEOUT.toNanos();
        while (true) {
            TableDescription description = dynamo.describeTable(r -> r.tableName(table)).table();
            boolean indexesActive = description.globalSecondaryIndexes().stream()
                    .allMatch(index -> index.indexStatus() == IndexStatus.ACTIVE);
            if (description.tableStatus() == TableStatus.ACTIVE && indexesActive) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new StartupException("table " + table + " is still " + description.tableStatusAsString()
                        + " after " + TABLE_READY_TIMEOUT.toSeconds() + " s");
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupException("interrupted while waiting for table " + table, e);
            }
        }
    }

    /** A table kept in a data directory may predate an index the code now needs; say so instead of failing later. */
    private static void warnIfIndexesDiffer(TableDescription existing, CreateTableRequest definition) {
        indexDrift(existing, definition).ifPresent(LOG::warn);
    }

    /**
     * What differs between the indexes of an existing table (a data directory of an earlier version) and the
     * definition, by name and key schema: an index with other keys would silently miss the items written now.
     */
    static Optional<String> indexDrift(TableDescription existing, CreateTableRequest definition) {
        Set<String> have = Stream.concat(
                        existing.globalSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())),
                        existing.localSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> want = Stream.concat(
                        definition.globalSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())),
                        definition.localSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())))
                .collect(Collectors.toCollection(TreeSet::new));
        if (have.equals(want)) {
            return Optional.empty();
        }
        return Optional.of("table " + existing.tableName() + " has indexes " + have + " but the current definition has "
                + want + "; to recreate it, stop the runner and delete the data directory");
    }

    /**
     * An existing table (a data directory of an earlier version) whose local secondary indexes are not the
     * definition's: an LSI can only be created with its table, so the runner cannot add one and refuses to start with
     * what to do, rather than failing at the first request that reads one.
     */
    static Optional<String> localIndexDrift(TableDescription existing, CreateTableRequest definition) {
        Set<String> have = existing.localSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema()))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> want = definition.localSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema()))
                .collect(Collectors.toCollection(TreeSet::new));
        if (have.equals(want)) {
            return Optional.empty();
        }
        return Optional.of("table " + existing.tableName() + " has the local secondary indexes " + have
                + " but the current definition has " + want + "; a local secondary index can only be created with"
                + " its table: stop the runner and delete the data directory (or start with another --table-name)"
                + " to recreate it");
    }

    /** The global secondary indexes of the definition that an existing table lacks (by name): they can be added. */
    static List<GlobalSecondaryIndex> missingGlobalIndexes(TableDescription existing, CreateTableRequest definition) {
        Set<String> have = existing.globalSecondaryIndexes().stream().map(i -> i.indexName())
                .collect(Collectors.toSet());
        return definition.globalSecondaryIndexes().stream().filter(i -> !have.contains(i.indexName())).toList();
    }

    /** The UpdateTable that adds one index of the definition, with the definitions of its key attributes. */
    static UpdateTableRequest addIndex(CreateTableRequest definition, GlobalSecondaryIndex index) {
        Set<String> keys = index.keySchema().stream().map(KeySchemaElement::attributeName).collect(Collectors.toSet());
        return UpdateTableRequest.builder()
                .tableName(definition.tableName())
                .attributeDefinitions(definition.attributeDefinitions().stream()
                        .filter(a -> keys.contains(a.attributeName())).toList())
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                        .create(CreateGlobalSecondaryIndexAction.builder()
                                .indexName(index.indexName())
                                .keySchema(index.keySchema())
                                .projection(index.projection())
                                .build())
                        .build())
                .build();
    }

    private static String describe(String indexName, List<KeySchemaElement> keys) {
        return indexName + keys.stream().map(k -> k.attributeName() + " " + k.keyTypeAsString())
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
