package io.tally.local.events;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.tally.local.server.GracefulStop;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A local stand-in for an Amazon EventBridge event bus: an HTTP endpoint that speaks PutEvents as the service does
 * (AWS JSON 1.1, so an SDK {@code EventBridgeClient} with an {@code endpointOverride} publishes to it unchanged),
 * matches every accepted event against the {@link EventRules} with AWS's Event Ruler, and delivers it to local
 * targets: a JSON-lines file per matched rule and the recent events behind {@code GET /events}.
 *
 * <p>Unlike on AWS, delivery is done before PutEvents answers: once a publisher has its EventIds, the events are
 * in the files and the recent events, which spares tests (and people) any waiting. Credentials are checked when the
 * bus is told its callers' ({@link Settings#withCallers}: the runner's, under {@code --auth}), as EventBridge checks
 * them ({@link CallerCheck}); otherwise any caller is taken.
 */
public final class LocalEventBus implements AutoCloseable {
    /** Where the bus listens unless told otherwise: next to DynamoDB Local's usual 8000. */
    public static final int DEFAULT_PORT = 8001;
    /** The bus's name, as in the deployment. */
    public static final String DEFAULT_BUS_NAME = "tally";
    public static final int DEFAULT_RECENT_CAPACITY = RecentEventsHandler.MAX_LIMIT;
    /** Bodies above this are not read ({@link BusEndpoint#MAX_BODY_BYTES}). */
    static final int MAX_BODY_BYTES = BusEndpoint.MAX_BODY_BYTES;
    static final String CONTENT_TYPE = BusEndpoint.CONTENT_TYPE;
    /** How long close() lets calls in flight finish. */
    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final int THREADS = 4;
    private static final int QUEUE = 64;
    /** EventBridge's rule for event bus names. */
    private static final Pattern BUS_NAME = Pattern.compile("[/.\\-_A-Za-z0-9]{1,256}");

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Where and how the bus runs.
     *
     * @param host           the address to listen on
     * @param port           the port; 0 picks a free one
     * @param busName        the name entries may give as {@code EventBusName} (besides {@code default})
     * @param outputDir      where each rule's {@code <rule>.jsonl} is appended to; created if missing
     * @param recentCapacity how many of the newest events {@code GET /events} can show
     * @param callers        the credentials a call must be signed with (Signature Version 4), or null for any caller
     */
    public record Settings(String host, int port, String busName, Path outputDir, int recentCapacity,
                           software.amazon.awssdk.auth.credentials.AwsCredentials callers) {
        public Settings {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(busName, "busName");
            Objects.requireNonNull(outputDir, "outputDir");
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("the event bus port must be between 0 and 65535, not " + port);
            }
            if (!BUS_NAME.matcher(busName).matches()) {
                throw new IllegalArgumentException("'" + busName + "' is not an EventBridge bus name");
            }
            if (recentCapacity < RecentEventsHandler.MAX_LIMIT) {
                throw new IllegalArgumentException("recentCapacity must be at least " + RecentEventsHandler.MAX_LIMIT
                        + ", the largest limit GET /events accepts");
            }
            outputDir = outputDir.toAbsolutePath().normalize();
        }

        /** The bus {@code tally} on {@code host:port}, writing to {@code outputDir}, keeping 1,000 recent events. */
        public static Settings of(String host, int port, Path outputDir) {
            return new Settings(host, port, DEFAULT_BUS_NAME, outputDir, DEFAULT_RECENT_CAPACITY, null);
        }

        /** The same bus, taking only calls signed with {@code credentials}. */
        public Settings withCallers(software.amazon.awssdk.auth.credentials.AwsCredentials credentials) {
            return new Settings(host, port, busName, outputDir, recentCapacity,
                    Objects.requireNonNull(credentials, "credentials"));
        }
    }

    private final Settings settings;
    private final EventRules rules;
    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final PutEvents putEvents;
    private final EventRouter router;
    private final JsonLinesTarget files;
    private final RecentEvents recent;
    private final RecentEventsHandler recentEventsRoute;
    private final GracefulStop calls = new GracefulStop("the local event bus", GRACE);
    private final BusEndpoint endpoint;

    private final List<FunctionTarget> functions;

    private LocalEventBus(Settings settings, EventRules rules, HttpServer server, ThreadPoolExecutor executor,
            JsonLinesTarget files, RecentEvents recent, List<FunctionTarget> functions) {
        this.settings = settings;
        this.rules = rules;
        this.server = server;
        this.executor = executor;
        this.files = files;
        this.recent = recent;
        this.putEvents = new PutEvents(settings.busName(), Clock.systemUTC(), UUID::randomUUID);
        this.functions = List.copyOf(functions);
        List<EventTarget> targets = new java.util.ArrayList<>(List.of(files, recent));
        targets.addAll(this.functions);
        this.router = new EventRouter(rules, targets);
        this.recentEventsRoute = new RecentEventsHandler(recent);
        this.endpoint = new BusEndpoint(putEvents, router, calls, settings.callers() == null ? null
                : new CallerCheck(settings.callers(), Clock.systemUTC()));
    }

    /**
     * Starts listening.
     *
     * @throws java.net.BindException if the port is taken
     * @throws IOException            if the server cannot start, or the output directory cannot be prepared
     */
    public static LocalEventBus start(Settings settings, EventRules rules) throws IOException {
        return start(settings, rules, List.of());
    }

    /**
     * As {@link #start(Settings, EventRules)}, with functions as targets of their rules (closed with the bus).
     *
     * @throws java.net.BindException if the port is taken
     * @throws IOException            if the server cannot start, or the output directory cannot be prepared
     */
    public static LocalEventBus start(Settings settings, EventRules rules, List<FunctionTarget> functions)
            throws IOException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(rules, "rules");
        JsonLinesTarget files;
        try {
            files = new JsonLinesTarget(settings.outputDir(), rules.names());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 0);
        // Bounded both ways, as the HTTP front: past the queue a connection is dropped instead of piling up work.
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), daemonThreads(), new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
        LocalEventBus bus = new LocalEventBus(settings, rules, server, executor, files,
                new RecentEvents(settings.recentCapacity()), functions);
        server.createContext("/", bus.endpoint::exchange);
        server.setExecutor(executor);
        server.start();
        return bus;
    }

    /** Where an {@code EventBridgeClient} on this machine sends PutEvents, e.g. {@code http://127.0.0.1:8001}. */
    public URI endpoint() {
        InetAddress address = server.getAddress().getAddress();
        String host = address.isAnyLocalAddress() ? "127.0.0.1"
                : address.getHostAddress().contains(":") ? "[" + address.getHostAddress() + "]"
                : address.getHostAddress();
        return URI.create("http://" + host + ":" + port());
    }

    /** The port the bus listens on (the chosen one when started with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    public String busName() {
        return settings.busName();
    }

    /**
     * The credentials a call must be signed with ({@link Settings#withCallers}: the runner's under {@code --auth}), for a
     * process that embeds the runner and publishes itself; empty when the bus takes any caller.
     */
    public java.util.Optional<software.amazon.awssdk.auth.credentials.AwsCredentials> callers() {
        return java.util.Optional.ofNullable(settings.callers());
    }

    public EventRules rules() {
        return rules;
    }

    /** Where the rules' JSON-lines files are. */
    public Path outputDir() {
        return settings.outputDir();
    }

    /** The JSON-lines file of {@code rule}: one envelope per line, appended as events match. */
    public Path file(String rule) {
        return files.file(rule);
    }

    /** Up to {@code limit} of the newest accepted events, newest first, whether they matched a rule or not. */
    public List<MatchedEvent> recentEvents(int limit) {
        return recent.newest(limit);
    }

    /** {@code GET /events}, for the runner's HTTP front to mount: the recent events as JSON. */
    public RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> recentEventsRoute() {
        return recentEventsRoute;
    }

    /**
     * {@code GET /events} under access control: every event for an admin, the public ones (their details cut to the
     * public fields) for anyone else; the claims are the JWT authorizer's, which wraps it.
     */
    public RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> recentEventsRoute(
            io.tally.core.events.PublicEvents publicOnly) {
        return new RecentEventsHandler(recent, java.util.Objects.requireNonNull(publicOnly, "publicOnly"));
    }

    /** Stops accepting calls, lets calls in flight finish for a short grace period, then closes. Idempotent. */
    @Override
    public void close() {
        if (!calls.stop()) {
            return;
        }
        // stop(0): the wait above covers the calls actually in flight; stop's own delay would be spent in full.
        server.stop(0);
        functions.forEach(FunctionTarget::close);
        executor.shutdown();
        try {
            if (!executor.awaitTermination(1, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "tally-events-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
