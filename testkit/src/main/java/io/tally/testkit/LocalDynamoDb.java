package io.tally.testkit;

import io.tally.core.activity.ActivityFeed;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndexes;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * Amazon DynamoDB Local, embedded in the test JVM: started once per JVM (start-up costs seconds), with a fresh
 * table per test class so that tests do not see each other's items.
 */
public final class LocalDynamoDb {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static AmazonDynamoDBLocal instance;

    private LocalDynamoDb() {
    }

    public static synchronized AmazonDynamoDBLocal instance() {
        if (instance == null) {
            // true disables telemetry: no network calls, no dynamodb-local-metadata.json in the working directory.
            instance = DynamoDBEmbedded.create(true);
            AmazonDynamoDBLocal started = instance;
            Runtime.getRuntime().addShutdownHook(new Thread(started::shutdown, "dynamodb-local-shutdown"));
        }
        return instance;
    }

    /** The embedded instance's client; the AWS operations main code makes through it are recorded. */
    public static DynamoDbClient client() {
        return AwsOperationRecorder.recording(instance().dynamoDbClient(), DynamoDbClient.class);
    }

    /** The embedded instance's streams client; the AWS operations main code makes through it are recorded. */
    public static DynamoDbStreamsClient streamsClient() {
        return AwsOperationRecorder.recording(instance().dynamoDbStreamsClient(), DynamoDbStreamsClient.class);
    }

    /** Creates a new table of the subscriber example's activity feed ({@link ActivityFeed}) and returns its name. */
    public static String createActivityTable() {
        String name = "activity-" + TABLES.incrementAndGet();
        client().createTable(ActivityFeed.createTable(name));
        return name;
    }

    /** Creates a new table of the writers' per-caller write quota ({@code DynamoDbWriteQuota}) and returns its name. */
    public static String createQuotaTable() {
        String name = "quota-" + TABLES.incrementAndGet();
        client().createTable(io.tally.core.quota.DynamoDbWriteQuota.createTable(name));
        return name;
    }

    /**
     * Creates a new table with the indexes of the domains on the class path ({@link DomainRegistry#load()}: Tally's
     * and a module's own, as the template generated for them declares) and returns its name.
     */
    public static String createTable(String prefix) {
        return createTable(prefix, DomainRegistry.load());
    }

    /** Creates a new table with the indexes of these domains ({@link TableIndexes}) and returns its name. */
    public static String createTable(String prefix, DomainRegistry domains) {
        String name = prefix + "-" + TABLES.incrementAndGet();
        client().createTable(TableIndexes.createTableRequest(domains, name));
        return name;
    }
}
