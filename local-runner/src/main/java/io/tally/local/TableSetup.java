package io.tally.local;

import io.tally.core.TableDefinition;
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
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

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

    /** Creates the table from Tally's one definition unless it exists; returns whether it created it. */
    static boolean ensureTable(DynamoDbClient dynamo, String table) {
        CreateTableRequest definition = TableDefinition.createTableRequest(table);
        boolean created;
        try {
            TableDescription existing = dynamo.describeTable(r -> r.tableName(table)).table();
            warnIfIndexesDiffer(existing, definition);
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
        try {
            dynamo.describeTable(r -> r.tableName(table));
        } catch (ResourceNotFoundException e) {
            try {
                dynamo.createTable(io.tally.core.activity.ActivityFeed.createTable(table));
            } catch (ResourceInUseException raced) {
                // Created meanwhile: what was wanted.
            }
        }
        awaitActive(dynamo, table);
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

    private static String describe(String indexName, List<KeySchemaElement> keys) {
        return indexName + keys.stream().map(k -> k.attributeName() + " " + k.keyTypeAsString())
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
