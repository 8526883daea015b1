package io.tally.local;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.tally.core.domain.DomainRegistry;
import io.tally.local.events.LocalEventBus;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What to run where.
 *
 * @param host         the address the writer API listens on (DynamoDB Local and the event bus listen on loopback,
 *                     unless {@code exposeBackends})
 * @param port         the writer API's HTTP port; 0 picks a free one
 * @param dynamoDbPort DynamoDB Local's port; 0 picks a free one
 * @param dataDir      where DynamoDB Local keeps its database across restarts; null keeps it in memory
 * @param tableName    the table, created on start if it does not exist
 * @param eventsPort   the local event bus's port (EventBridge PutEvents); 0 picks a free one
 * @param rulesDir     the event rule files; null takes the ones packaged with the runner
 * @param eventsDir    where each rule's matched events are appended ({@code <rule>.jsonl}); null means
 *                     {@code <dataDir>/events}, or without a data directory a temporary one removed on close
 * @param auth         {@code --auth}: the front verifies bearer tokens signed by the local key (kept in the data
 *                     directory, or in memory) and the writer checks every route's access rule, as deployed
 * @param domains      the domains the writer serves and the stream processor derives: those on the runner's class
 *                     path, plus those of {@code --domain-jar}
 * @param exposeBackends {@code --expose-backends}: DynamoDB Local (which takes any credentials) and the event bus
 *                     listen on {@code host} too, so that anyone who reaches it reads and writes every item, past
 *                     {@code --auth}; off by default
 * @param writeQuota   {@code --write-quota} and {@code --admin-write-quota}: each signed-in caller's writes a second
 *                     and burst under {@code --auth}, counted in the table {@code <table>-quota} (the open mode has
 *                     none); null takes DOMAIN.md's 20/100 and 200/1000
 */
@RecordBuilder
public record RunnerSettings(String host, int port, int dynamoDbPort, Path dataDir, String tableName, int eventsPort,
        Path rulesDir, Path eventsDir, boolean auth, DomainRegistry domains, boolean exposeBackends,
        io.tally.core.http.WriteQuota.Rates writeQuota)
        implements RunnerSettingsBuilder.With {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final int DEFAULT_DYNAMODB_PORT = 8000;
    public static final int DEFAULT_EVENTS_PORT = LocalEventBus.DEFAULT_PORT;
    public static final String DEFAULT_TABLE_NAME = "tally";
    /** DynamoDB's own rule for table names. */
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

    public RunnerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(domains, "domains");
        if (host.isBlank()) {
            throw new IllegalArgumentException("the host must not be blank");
        }
        checkPort(port, "--port");
        checkPort(dynamoDbPort, "--dynamodb-port");
        checkPort(eventsPort, "--events-port");
        checkDistinct(port, "--port", dynamoDbPort, "--dynamodb-port");
        checkDistinct(port, "--port", eventsPort, "--events-port");
        checkDistinct(dynamoDbPort, "--dynamodb-port", eventsPort, "--events-port");
        if (!TABLE_NAME.matcher(tableName).matches()) {
            throw new IllegalArgumentException("table name '" + tableName
                    + "' is not a DynamoDB table name: 3 to 255 letters, digits, '_', '-' or '.'");
        }
        dataDir = dataDir == null ? null : dataDir.toAbsolutePath().normalize();
        rulesDir = rulesDir == null ? null : rulesDir.toAbsolutePath().normalize();
        eventsDir = eventsDir == null ? null : eventsDir.toAbsolutePath().normalize();
        writeQuota = writeQuota == null ? io.tally.core.http.WriteQuota.Rates.DEFAULTS : writeQuota;
    }

    /** Open, without access control (the default). */
    public RunnerSettings(String host, int port, int dynamoDbPort, Path dataDir, String tableName, int eventsPort,
            Path rulesDir, Path eventsDir) {
        this(host, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir, false,
                DomainRegistry.load(), false, null);
    }

    /**
     * The defaults of the command: the usual ports on the loopback interface, in memory, table {@code tally},
     * the packaged event rules.
     */
    public static RunnerSettings defaults() {
        return new RunnerSettings(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_DYNAMODB_PORT, null, DEFAULT_TABLE_NAME,
                DEFAULT_EVENTS_PORT, null, null);
    }

    /** Free ports chosen at start, in memory: what a test wants. */
    public static RunnerSettings ephemeral() {
        return defaults().withPort(0).withDynamoDbPort(0).withEventsPort(0);
    }

    private static void checkPort(int port, String option) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(option + " must be between 0 and 65535, not " + port);
        }
    }

    private static void checkDistinct(int port, String option, int otherPort, String otherOption) {
        if (port != 0 && port == otherPort) {
            throw new IllegalArgumentException(option + " and " + otherOption + " must differ, both are " + port);
        }
    }
}
