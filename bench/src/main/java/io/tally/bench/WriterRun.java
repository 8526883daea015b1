package io.tally.bench;

import io.tally.local.RunnerSettings;
import io.tally.local.LocalRunner;
import io.tally.writer.DynamoDbClients;
import io.tally.writer.WriterConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The writer mode: requests per second through the local runner's HTTP front and the writer's handler, against raw
 * AWS SDK calls doing the same DynamoDB work, at the same concurrency, on the same kind of server.
 *
 * <p>A round has two halves, each on a fresh {@link LocalRunner} (in memory, its stream pipeline running, as
 * {@code tally-local} runs). <em>Front</em>: {@code threads} client threads, each with one request in flight, send
 * their own sequence of writes over HTTP (a user, then posts, comments on them and catalogue items), and every answer
 * must be a 2xx. Meanwhile {@link SdkCallRecorder} records every DynamoDB request the writer makes; each is
 * attributed to the client thread whose ids it names. <em>Raw</em>: the same number of threads sharing one DynamoDB
 * client configured as the writer's send exactly those recorded requests, each thread its own in the recorded order,
 * straight to the second runner's DynamoDB Local; none may fail. Both halves start from the same empty table, so the
 * conditions decide alike and the stream pipeline has the same records to process. The ratio is API requests per
 * second through the front over the same requests' DynamoDB calls per second sent raw.
 */
final class WriterRun {
    private static final Logger LOG = LoggerFactory.getLogger(WriterRun.class);
    /** Every id a client thread uses names it: {@code wt<thread>-}. */
    private static final Pattern THREAD_TOKEN = Pattern.compile("wt(\\d+)-");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final int threads;
    private final int requestsPerThread;
    private final int rounds;
    private final boolean warmUp;

    WriterRun(int threads, int requestsPerThread, int rounds) {
        this(threads, requestsPerThread, rounds, true);
    }

    /** {@code warmUp}: a whole unreported round first (what the benchmark does; a test may leave it out). */
    WriterRun(int threads, int requestsPerThread, int rounds, boolean warmUp) {
        if (threads < 1 || requestsPerThread < 2 || rounds < 1) {
            throw new IllegalArgumentException("threads and rounds must be positive, requests per thread at least 2");
        }
        this.threads = threads;
        this.requestsPerThread = requestsPerThread;
        this.rounds = rounds;
        this.warmUp = warmUp;
    }

    /** One API request of a client thread's sequence. */
    record Op(String kind, String method, String path, String body) {
    }

    /**
     * Thread {@code t}'s writes: its user first, then a cycle of six: a post, three comments on it, two catalogue
     * items. Every id names the thread ({@code wt<t>-}), and so does every DynamoDB key the writer touches for it.
     */
    static List<Op> sequence(int thread, int requests) {
        String user = "wt" + thread + "-u";
        List<Op> ops = new ArrayList<>(requests);
        ops.add(new Op("create user", "POST", "/users", "{\"userId\":\"" + user + "\",\"name\":\"Writer " + thread
                + "\",\"email\":\"wt" + thread + "@example.com\"}"));
        String post = null;
        for (int i = 1; i < requests; i++) {
            int step = i % 6;
            if (step == 1 || post == null) {
                String postId = "wt" + thread + "-p" + i;
                ops.add(new Op("create post", "POST", "/users/" + user + "/posts",
                        "{\"postId\":\"" + postId + "\",\"title\":\"Post " + i + "\",\"body\":\"Written by thread "
                                + thread + "\"}"));
                post = "/users/" + user + "/posts/" + postId;
            } else if (step >= 2 && step <= 4) {
                ops.add(new Op("add comment", "POST", post + "/comments",
                        "{\"authorId\":\"" + user + "\",\"text\":\"Comment " + i + "\"}"));
            } else {
                ops.add(new Op("put item", "PUT", "/items/wt" + thread + "-i" + i,
                        "{\"score\":" + (i * 37 % 1000) + ",\"selector\":\"back-catalogue\"}"));
            }
        }
        return ops;
    }

    /** The thread a recorded request belongs to, by the ids it names; -1 when none or several. */
    static int threadOf(SdkRequest request) {
        Matcher matcher = THREAD_TOKEN.matcher(request.toString());
        int found = -1;
        while (matcher.find()) {
            int thread = Integer.parseInt(matcher.group(1));
            if (found >= 0 && found != thread) {
                return -1;
            }
            found = thread;
        }
        return found;
    }

    Results.Writer run() {
        // A whole pair first, unreported: class loading and the JIT would otherwise count against the first half (a
        // quarter-sized pair left the first measured front half a third slower than the second).
        if (warmUp) {
            LOG.info("writer: warming up");
            round(0);
        }
        List<Results.WriterRound> measured = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            measured.add(round(r));
        }
        return new Results.Writer(threads, requestsPerThread, measured);
    }

    private Results.WriterRound round(int number) {
        // Recorded as they come, attributed afterwards: reading a request's ids costs time the front must not be charged.
        Queue<SdkRequest> calls = new ConcurrentLinkedQueue<>();
        double frontSeconds;
        double frontDrain;
        Results.Cpu frontCpu;
        List<Double> latencies = new ArrayList<>();
        try (LocalRunner runner = LocalRunner.start(RunnerSettings.ephemeral())) {
            URI base = runner.baseUri();
            try (AutoCloseable recording = SdkCallRecorder.recording(calls::add)) {
                CpuUse cpuAtStart = CpuUse.now();
                long started = System.nanoTime();
                List<List<Double>> perThread = inParallel(thread -> front(base, thread));
                frontSeconds = Timing.seconds(started);
                frontCpu = CpuUse.since(cpuAtStart);
                perThread.forEach(latencies::addAll);
            }
            frontDrain = drain(runner);
        } catch (Exception e) {
            throw new IllegalStateException("writer round " + number + " (front) failed: " + e.getMessage(), e);
        }
        Map<Integer, List<SdkRequest>> recorded = new HashMap<>();
        Map<String, Integer> callsByOperation = new TreeMap<>();
        int unattributed = 0;
        for (SdkRequest call : calls) {
            int thread = threadOf(call);
            if (thread < 0 || thread >= threads) {
                unattributed++;
                continue;
            }
            recorded.computeIfAbsent(thread, t -> new ArrayList<>()).add(call);
            callsByOperation.merge(operation(call), 1, Integer::sum);
        }
        if (unattributed > 0) {
            throw new IllegalStateException(unattributed + " DynamoDB request(s) of the writer named no single"
                    + " client thread; the raw half could not repeat them");
        }

        double rawSeconds;
        double rawDrain;
        Results.Cpu rawCpu;
        try (LocalRunner runner = LocalRunner.start(RunnerSettings.ephemeral());
             // The client the runner's writer builds for itself.
             DynamoDbClient dynamo = DynamoDbClients.create(WriterConfig.local(runner.tableName(),
                     runner.dynamoDbEndpoint()))) {
            CpuUse cpuAtStart = CpuUse.now();
            long started = System.nanoTime();
            inParallel(thread -> {
                for (SdkRequest call : recorded.getOrDefault(thread, List.of())) {
                    send(dynamo, call);
                }
                return List.of();
            });
            rawSeconds = Timing.seconds(started);
            rawCpu = CpuUse.since(cpuAtStart);
            rawDrain = drain(runner);
        } catch (Exception e) {
            throw new IllegalStateException("writer round " + number + " (raw) failed: " + e.getMessage(), e);
        }
        int requests = threads * requestsPerThread;
        LOG.info("writer round {}: {} requests through the front in {}s ({}/s), their {} DynamoDB calls raw in {}s"
                        + " ({} requests/s): {}x", number, requests, Report.fmt(frontSeconds, 1),
                Report.fmt(requests / frontSeconds, 0), calls.size(), Report.fmt(rawSeconds, 1),
                Report.fmt(requests / rawSeconds, 0), Report.fmt(rawSeconds / frontSeconds, 2));
        return new Results.WriterRound(number, requests, calls.size(), callsByOperation, frontSeconds, rawSeconds,
                frontDrain, rawDrain, frontCpu, rawCpu, Report.percentile(latencies, 50), Report.percentile(latencies, 99));
    }

    /**
     * Seconds until the runner's stream pipeline has processed every record of the half: both halves' requests are
     * timed without it, but the pipeline shares the cores, and it keeps up with a slower half better.
     */
    private static double drain(LocalRunner runner) throws InterruptedException, TimeoutException {
        long started = System.nanoTime();
        runner.awaitDrained(Duration.ofMinutes(5));
        return Timing.seconds(started);
    }

    /**
     * A client thread's writes through the front, on a kept-alive connection of the JDK's {@link HttpURLConnection}
     * (the HTTP client the raw half's SDK client uses too); any answer but a 2xx fails the round.
     */
    private List<Double> front(URI base, int thread) throws IOException {
        List<Double> latencies = new ArrayList<>(requestsPerThread);
        for (Op op : sequence(thread, requestsPerThread)) {
            long started = System.nanoTime();
            HttpURLConnection connection = (HttpURLConnection) base.resolve(op.path()).toURL().openConnection();
            connection.setConnectTimeout(10_000);
            connection.setReadTimeout((int) REQUEST_TIMEOUT.toMillis());
            connection.setRequestMethod(op.method());
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setDoOutput(true);
            byte[] body = op.body().getBytes(StandardCharsets.UTF_8);
            connection.setFixedLengthStreamingMode(body.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
            int status = connection.getResponseCode();
            byte[] answer;
            try (InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                answer = in == null ? new byte[0] : in.readAllBytes();
            }
            latencies.add((System.nanoTime() - started) / 1e6);
            if (status / 100 != 2) {
                throw new IllegalStateException(op.method() + " " + op.path() + " answered " + status + ": "
                        + new String(answer, StandardCharsets.UTF_8));
            }
        }
        return latencies;
    }

    private interface PerThread<T> {
        T run(int thread) throws Exception;
    }

    private <T> List<T> inParallel(PerThread<T> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> work.run(thread)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    static String operation(SdkRequest request) {
        String name = request.getClass().getSimpleName();
        return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
    }

    /** Sends a recorded request as it was; a refusal (a failed condition included) fails the round. */
    static void send(DynamoDbClient dynamo, SdkRequest request) {
        if (request instanceof PutItemRequest put) {
            dynamo.putItem(put);
        } else if (request instanceof TransactWriteItemsRequest transaction) {
            dynamo.transactWriteItems(transaction);
        } else if (request instanceof GetItemRequest get) {
            dynamo.getItem(get);
        } else if (request instanceof UpdateItemRequest update) {
            dynamo.updateItem(update);
        } else if (request instanceof DeleteItemRequest delete) {
            dynamo.deleteItem(delete);
        } else if (request instanceof QueryRequest query) {
            dynamo.query(query);
        } else {
            throw new IllegalStateException("the writer made a call the raw half cannot repeat: " + operation(request));
        }
    }
}
