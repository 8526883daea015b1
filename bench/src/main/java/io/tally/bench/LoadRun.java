package io.tally.bench;

import io.tally.local.RunnerSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.ShardSettings;
import io.tally.local.LocalRunner;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The load mode: the local runner ({@code tally-local}'s {@link LocalRunner}, in this JVM, in memory) driven over
 * real HTTP by many concurrent connections, each a thread with one request in flight, mixing writes (posts and
 * comments, which are transactions, and catalogue items, a single put) with reads (a post, a user's posts, stats).
 * Checked: no 5xx other than 503 with {@code Retry-After} (load shedding, which the client may retry), no other
 * unexpected answer, every acknowledged write readable afterwards, and the derived data equal to the recomputation
 * once the stream has drained.
 */
final class LoadRun {
    private static final Logger LOG = LoggerFactory.getLogger(LoadRun.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Comments per post before a connection starts a new post (a post's comments are checked on one page). */
    static final int COMMENTS_PER_POST = 20;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

    private final int connections;
    private final Duration duration;
    private final long seed;
    /** Acknowledged writes: a post's path and its acknowledged comment ids; item paths. */
    private final Map<String, Set<String>> posts = new ConcurrentHashMap<>();
    private final Set<String> items = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> setupFailures = new ConcurrentLinkedQueue<>();
    private HttpClient http;
    private URI base;

    LoadRun(int connections, Duration duration, long seed) {
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be positive");
        }
        this.connections = connections;
        this.duration = duration;
        this.seed = seed;
    }

    Results.Load run() {
        try (LocalRunner runner = LocalRunner.start(RunnerSettings.ephemeral())) {
            return run(runner);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private Results.Load run(LocalRunner runner) throws InterruptedException {
        base = runner.baseUri();
        // One synchronous request in flight per driver thread: the client's pool never holds more than
        // `connections` connections (HTTP/1.1, one request per connection at a time).
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        {
            for (int c = 0; c < connections; c++) {
                Reply user = send("POST", "/users", "{\"userId\":\"load-u" + c + "\",\"name\":\"Load " + c
                        + "\",\"email\":\"load" + c + "@example.com\"}");
                if (user.outcome != LoadTally.Outcome.OK) {
                    setupFailures.add("POST /users (load-u" + c + "): " + user.status + " " + abbreviate(user.text));
                }
            }
            LOG.info("load: {} connections for {}s against {}", connections, duration.toSeconds(), base);
            ExecutorService drivers = Executors.newFixedThreadPool(connections);
            List<Future<LoadTally>> futures = new ArrayList<>();
            long started = System.nanoTime();
            long end = started + duration.toNanos();
            LoadTally all;
            long peak;
            double elapsed;
            try (HeapSampler heap = HeapSampler.start()) {
                for (int c = 0; c < connections; c++) {
                    int connection = c;
                    futures.add(drivers.submit(() -> drive(connection, end)));
                }
                List<LoadTally> tallies = new ArrayList<>();
                for (Future<LoadTally> future : futures) {
                    try {
                        tallies.add(future.get());
                    } catch (java.util.concurrent.ExecutionException e) {
                        throw new IllegalStateException("a load connection failed", e.getCause());
                    }
                }
                elapsed = Timing.seconds(started);
                heap.close();
                peak = heap.peakBytes();
                all = LoadTally.merge(tallies);
            } finally {
                drivers.shutdownNow();
            }
            LOG.info("load: {} requests in {}s, {} writes acknowledged, {} shed, {} unexpected", all.requests,
                    Report.fmt(elapsed, 1), all.writesAcknowledged, all.shed, all.unexpected.size());

            long drainStarted = System.nanoTime();
            try {
                runner.awaitDrained(DRAIN_TIMEOUT);
            } catch (TimeoutException e) {
                throw new IllegalStateException("the stream did not drain within " + DRAIN_TIMEOUT, e);
            }
            double drainSeconds = Timing.seconds(drainStarted);
            List<String> missing = missingWrites();
            VerificationReport report = verify(runner);
            LOG.info("load: drained in {}s, {} acknowledged writes missing, derived data exact: {}",
                    Report.fmt(drainSeconds, 1), missing.size(), report.isExact());
            List<String> unexpected = new ArrayList<>(setupFailures);
            unexpected.addAll(all.unexpected);
            return new Results.Load(connections, elapsed, all.requests, all.requests / elapsed,
                    all.writesAcknowledged, all.readsOk, all.shed, unexpected.size(),
                    unexpected.stream().limit(10).toList(),
                    Report.percentile(all.latenciesMs, 50), Report.percentile(all.latenciesMs, 99),
                    all.latenciesMs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
                    Report.percentile(all.writeLatenciesMs, 50), Report.percentile(all.writeLatenciesMs, 99),
                    Report.percentile(all.readLatenciesMs, 50), Report.percentile(all.readLatenciesMs, 99),
                    peak / (1024 * 1024), drainSeconds, posts.size(),
                    posts.values().stream().mapToInt(Set::size).sum(), items.size(), missing.size(),
                    missing.stream().limit(10).toList(), report.isExact(), report.differences().size());
        }
    }

    /** One connection: a random mix until {@code end}; its own user, its own current post. */
    private LoadTally drive(int connection, long end) {
        LoadTally tally = new LoadTally();
        Random random = new Random(seed * 1_000_003L + connection);
        String user = "load-u" + connection;
        String post = null;
        int comments = 0;
        int n = 0;
        while (System.nanoTime() < end) {
            n++;
            int dice = random.nextInt(100);
            if (post == null || comments >= COMMENTS_PER_POST || dice < 15) {
                String postId = "load-c" + connection + "-p" + n;
                String path = "/users/" + user + "/posts/" + postId;
                Reply reply = timed(tally, true, "POST", "/users/" + user + "/posts",
                        "{\"postId\":\"" + postId + "\",\"title\":\"Load\",\"body\":\"Post " + n + "\"}");
                if (reply.outcome == LoadTally.Outcome.OK) {
                    posts.put(path, ConcurrentHashMap.newKeySet());
                    post = path;
                    comments = 0;
                }
            } else if (dice < 45) {
                String author = "load-u" + random.nextInt(connections);
                Reply reply = timed(tally, true, "POST", post + "/comments",
                        "{\"authorId\":\"" + author + "\",\"text\":\"Comment " + n + "\"}");
                if (reply.outcome == LoadTally.Outcome.OK) {
                    posts.get(post).add(reply.json.path("commentId").asText());
                    comments++;
                }
            } else if (dice < 55) {
                String item = "load-c" + connection + "-i" + n;
                Reply reply = timed(tally, true, "PUT", "/items/" + item,
                        "{\"score\":" + random.nextInt(1000) + ",\"selector\":\"back-catalogue\"}");
                if (reply.outcome == LoadTally.Outcome.OK) {
                    items.add(item);
                }
            } else if (dice < 70) {
                timed(tally, false, "GET", post, null);
            } else if (dice < 80) {
                timed(tally, false, "GET", "/users/" + user + "/posts?limit=5", null);
            } else if (dice < 90) {
                timed(tally, false, "GET", "/stats/users/" + user, null);
            } else {
                timed(tally, false, "GET", "/stats/global", null);
            }
        }
        return tally;
    }

    private record Reply(int status, LoadTally.Outcome outcome, JsonNode json, String text) {
    }

    private Reply timed(LoadTally tally, boolean write, String method, String path, String body) {
        long started = System.nanoTime();
        Reply reply = send(method, path, body);
        double ms = (System.nanoTime() - started) / 1e6;
        tally.record(write, ms, reply.outcome, method + " " + path + ": " + reply.status + " " + abbreviate(reply.text));
        return reply;
    }

    /** A request; a broken connection or a timeout is an UNEXPECTED answer with status 0. */
    private Reply send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(REQUEST_TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            LoadTally.Outcome outcome = LoadTally.classify(response.statusCode(),
                    response.headers().firstValue("Retry-After").isPresent());
            JsonNode json = null;
            if (outcome == LoadTally.Outcome.OK) {
                try {
                    json = JSON.readTree(response.body());
                } catch (IOException notJson) {
                    json = null;
                }
            }
            return new Reply(response.statusCode(), outcome, json, response.body());
        } catch (IOException e) {
            return new Reply(0, LoadTally.Outcome.UNEXPECTED, null, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    /** Every acknowledged post (with its acknowledged comments) and item, read back over HTTP, in parallel. */
    private List<String> missingWrites() throws InterruptedException {
        ConcurrentLinkedQueue<String> missing = new ConcurrentLinkedQueue<>();
        ExecutorService checkers = Executors.newFixedThreadPool(Math.min(connections, 16));
        try {
            for (Map.Entry<String, Set<String>> post : posts.entrySet()) {
                checkers.execute(() -> {
                    Reply reply = send("GET", post.getKey() + "/comments?limit=100", null);
                    if (reply.outcome != LoadTally.Outcome.OK) {
                        missing.add(post.getKey() + " (" + reply.status + ")");
                        return;
                    }
                    Set<String> listed = ConcurrentHashMap.newKeySet();
                    reply.json.path("items").forEach(comment -> listed.add(comment.path("commentId").asText()));
                    for (String comment : post.getValue()) {
                        if (!listed.contains(comment)) {
                            missing.add(post.getKey() + "/comments/" + comment);
                        }
                    }
                });
            }
            for (String item : items) {
                checkers.execute(() -> {
                    Reply reply = send("GET", "/items/" + item, null);
                    if (reply.outcome != LoadTally.Outcome.OK) {
                        missing.add("/items/" + item + " (" + reply.status + ")");
                    }
                });
            }
        } finally {
            checkers.shutdown();
        }
        if (!checkers.awaitTermination(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("reading the acknowledged writes back took too long");
        }
        return new ArrayList<>(missing);
    }

    private static VerificationReport verify(LocalRunner runner) {
        StaticCredentialsProvider credentials = StaticCredentialsProvider.create(
                AwsBasicCredentials.create("local", "local"));
        try (DynamoDbClient dynamo = DynamoDbClient.builder().endpointOverride(runner.dynamoDbEndpoint())
                .region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build();
             DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
                .endpointOverride(runner.dynamoDbEndpoint()).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            return new Rebuilder(dynamo, streams, runner.tableName(), DomainRegistry.load().derivations(ShardSettings.DEFAULTS),
                    2).verify();
        }
    }
}
