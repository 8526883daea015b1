package io.tally.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.tally.local.auth.JwksRoute;
import io.tally.local.auth.JwtAuthorizer;
import io.tally.local.auth.BusCredentials;
import io.tally.local.auth.LocalAuth;
import io.tally.local.events.EventRules;
import io.tally.local.events.FunctionTarget;
import io.tally.local.events.InvalidRuleException;
import io.tally.local.events.LocalEventBus;
import io.tally.local.http.HttpFront;
import io.tally.stream.subscriber.ActivityFeedHandler;
import io.tally.writer.WriterConfig;
import io.tally.writer.WriterHandler;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.PublicEvents;
import io.tally.core.http.Authorization;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The wiring of the pipeline, in the order it starts: the checks, DynamoDB Local and the table, the event bus, the
 * stream processor (built, not yet polling), the HTTP front, then the poller. Whatever fails stops what has
 * started so far, so that a failed start leaves nothing running.
 */
final class RunnerStartup {
    private RunnerStartup() {
    }

    /** See {@link LocalRunner#start}. */
    static LocalRunner start(RunnerSettings settings) {
        InetAddress address = Preflight.localAddress(settings.host());
        String host = address.getHostAddress();
        // DynamoDB Local takes any credentials and the bus any caller: they stay on loopback unless said otherwise.
        InetAddress backend = settings.exposeBackends() ? address : InetAddress.getLoopbackAddress();
        String backendHost = backend.getHostAddress();
        if (settings.exposeBackends() && !address.isLoopbackAddress()) {
            org.slf4j.LoggerFactory.getLogger(RunnerStartup.class).warn("--expose-backends: DynamoDB Local and the"
                    + " event bus listen on {}; anyone who reaches them reads and writes every item, whatever --auth"
                    + " says", host);
        }
        Preflight.ensureFree(address, settings.port(), "--port");
        Preflight.ensureFree(backend, settings.dynamoDbPort(), "--dynamodb-port");
        Preflight.ensureFree(backend, settings.eventsPort(), "--events-port");
        Preflight.prepareDir(settings.dataDir(), "--data-dir");
        Preflight.prepareDir(settings.eventsDir(), "--events-dir");
        // Before anything starts: a broken rule file is the user's to fix, like a port in use.
        EventRules rules = loadRules(settings.rulesDir());

        int dynamoDbPort = settings.dynamoDbPort() == 0 ? Preflight.freePort(backend) : settings.dynamoDbPort();
        URI endpoint = URI.create("http://" + HttpFront.clientHost(backend) + ":" + dynamoDbPort);
        // Building the first SDK client loads thousands of classes: half a second spent while DynamoDB Local starts.
        CompletableFuture<DynamoDbClient> adminClient = CompletableFuture.supplyAsync(
                () -> TableSetup.adminClient(endpoint), task -> newDaemonThread(task, "tally-local-sdk-init").start());
        DynamoDbLocalServer dynamoDb;
        try {
            dynamoDb = DynamoDbLocalServer.start(backendHost, dynamoDbPort, settings.dataDir());
        } catch (RuntimeException | Error e) {
            adminClient.thenAccept(DynamoDbClient::close);
            throw e;
        }
        try {
            boolean created;
            try (DynamoDbClient admin = join(adminClient)) {
                created = TableSetup.ensureTable(admin, settings.tableName(), settings.domains());
                TableSetup.ensureActivityTable(admin, LocalRunner.activityTableName(settings.tableName()));
                if (settings.auth()) {
                    TableSetup.ensureQuotaTable(admin, LocalRunner.quotaTableName(settings.tableName()));
                }
            }
            return startServers(settings, host, backendHost, dynamoDb, dynamoDbPort, endpoint, created, rules);
        } catch (RuntimeException | Error e) {
            dynamoDb.close();
            throw e;
        }
    }

    /**
     * The event bus, the stream processor (built, not yet polling), the front that serves the writer API, the bus's
     * recent events and the meters, then the poller.
     */
    private static LocalRunner startServers(RunnerSettings settings, String host, String backendHost,
            DynamoDbLocalServer dynamoDb, int dynamoDbPort, URI endpoint, boolean created, EventRules rules) {
        EventsDir eventsDir = EventsDir.of(settings);
        LocalEventBus events = null;
        StreamPipeline stream = null;
        try {
            // With --auth the bus takes only calls signed with this run's credentials, as EventBridge takes only signed
            // ones: the stream processor's, and a maintenance command's that reads them from the data directory.
            software.amazon.awssdk.auth.credentials.AwsBasicCredentials busCredentials = !settings.auth() ? null
                    : settings.dataDir() == null ? BusCredentials.generate()
                    : BusCredentials.renewIn(settings.dataDir());
            try {
                LocalEventBus.Settings bus = LocalEventBus.Settings.of(backendHost, settings.eventsPort(),
                        eventsDir.path());
                events = LocalEventBus.start(busCredentials == null ? bus : bus.withCallers(busCredentials),
                        rules, activityFeedTarget(rules, endpoint, settings.tableName(), settings.domains()));
            } catch (BindException e) {
                throw new PortInUseException(backendHost, settings.eventsPort(), "--events-port", e);
            } catch (IOException e) {
                throw new StartupException("the event bus did not start: " + e.getMessage(), e);
            }
            stream = StreamPipeline.create(settings.domains(), endpoint, settings.tableName(), events.endpoint(),
                    events.busName(), settings.dataDir(), busCredentials);
            LocalAuth auth = !settings.auth() ? null
                    : settings.dataDir() == null ? LocalAuth.inMemory() : LocalAuth.inDataDir(settings.dataDir());
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> writer = new WriterHandler(
                    WriterConfig.local(settings.tableName(), endpoint)
                            .withActivityTable(LocalRunner.activityTableName(settings.tableName()))
                            .withAuthorization(auth == null ? Authorization.OPEN : Authorization.required(true))
                            .withWriteQuota(auth == null ? null : new WriterConfig.WriteQuotaTable(
                                    LocalRunner.quotaTableName(settings.tableName()), settings.writeQuota()))
                            .withDomains(settings.domains()),
                    // The writer's meters (tally.api.*) go to the stream processor's registry: one GET /metrics.
                    stream.registry());
            Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> localRoutes = new HashMap<>();
            if (auth != null) {
                // API Gateway's JWT authorizer, locally: verified claims into the event, then the same function.
                writer = new JwtAuthorizer(auth, writer);
                localRoutes.put(JwksRoute.PATH, new JwksRoute(auth));
            }
            // Open: every event to everyone; with --auth, as deployed: the public ones, unless the caller is an admin.
            localRoutes.put(LocalRunner.EVENTS_PATH, auth == null ? events.recentEventsRoute()
                    : new JwtAuthorizer(auth, events.recentEventsRoute(PublicEvents.of(settings.domains().events()))));
            localRoutes.put(LocalRunner.METRICS_PATH, new MetricsHandler(stream::scrape));
            localRoutes.put(LocalDashboardRoutes.PATH, new LocalDashboardRoutes(writer, List.of(
                    "GET " + LocalRunner.EVENTS_PATH, "GET " + LocalRunner.METRICS_PATH)));
            HttpFront front;
            try {
                front = HttpFront.start(host, settings.port(), LocalRunner.WRITER_FUNCTION, writer, localRoutes);
            } catch (BindException e) {
                throw new PortInUseException(host, settings.port(), "--port", e);
            } catch (IOException e) {
                throw new StartupException("the HTTP front did not start: " + e.getMessage(), e);
            }
            try {
                stream.start();
            } catch (RuntimeException | Error e) {
                front.close();
                throw e;
            }
            return new LocalRunner(settings, dynamoDb, dynamoDbPort, endpoint, created, eventsDir, events, stream,
                    front, auth);
        } catch (RuntimeException | Error e) {
            if (stream != null) {
                stream.close();
            }
            if (events != null) {
                events.close();
            }
            eventsDir.removeIfTemporary();
            throw e;
        }
    }

    /**
     * The subscriber example, the same handler as the deployed function, as the target of the rule
     * {@value LocalRunner#ACTIVITY_FEED_RULE}; none when the rules (e.g. a --rules-dir) have no such rule.
     */
    private static List<FunctionTarget> activityFeedTarget(EventRules rules, URI endpoint, String tableName,
            DomainRegistry domains) {
        if (!rules.names().contains(LocalRunner.ACTIVITY_FEED_RULE)) {
            return List.of();
        }
        DynamoDbClient client = TableSetup.adminClient(endpoint);
        return List.of(new FunctionTarget(LocalRunner.ACTIVITY_FEED_RULE, LocalRunner.ACTIVITY_FEED_FUNCTION,
                new ActivityFeedHandler(client, LocalRunner.activityTableName(tableName), Clock.systemUTC(),
                        PublicEvents.of(domains.events())), client));
    }

    private static EventRules loadRules(Path rulesDir) {
        try {
            return rulesDir == null ? EventRules.fromClasspath() : EventRules.fromDirectory(rulesDir);
        } catch (InvalidRuleException e) {
            throw new StartupException(e.getMessage(), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new StartupException(e.getMessage() + (rulesDir == null ? "; pass --rules-dir DIR" : ""), e);
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static Thread newDaemonThread(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }
}
