package io.tally.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.tally.core.TableDefinition;
import io.tally.core.template.DeploymentTemplate;
import io.tally.testkit.LocalDynamoDbServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Cold start of the Lambda functions from their shaded jars: for each handler, fresh JVMs with the function's
 * environment, each constructing the handler and handling one realistic first event against DynamoDB Local (in
 * this JVM, server mode) and a local PutEvents endpoint.
 */
final class ColdStart {
    private static final Logger LOG = LoggerFactory.getLogger(ColdStart.class);
    static final String COMMAND = "mvn -B -ntp package -DskipTests && java -jar bench/target/tally-bench.jar --cold-start --runs 5";
    static final String WRITER_JAR = "writer-service/target/tally-writer.jar";
    static final String STREAM_JAR = "stream-processor/target/tally-stream-processor.jar";
    static final double TARGET_MS = 1500;
    static final String TABLE = "tally";
    static final String EVENT_BUS = "tally-events";
    /** The template this build carries, read once: each launch takes its function's options from it. */
    private static final DeploymentTemplate TEMPLATE = DeploymentTemplate.bundled();

    private static final Pattern LINE = Pattern.compile(ColdStartHarness.MARKER
            + " constructNanos=(\\d+) eventNanos=(\\d+) invokeNanos=(\\d+) (\\S+)");

    /** @param function the function of the template that runs the handler (its JAVA_TOOL_OPTIONS are the JVM's) */
    record HandlerSpec(String handler, String jar, String function, String kind, String event,
                       String expectedOutcome) {
        /** The function's {@code JAVA_TOOL_OPTIONS} in the template this build carries, as Lambda gives them. */
        String javaToolOptions() {
            return TEMPLATE.environmentVariable(function, "JAVA_TOOL_OPTIONS");
        }
    }

    static final List<HandlerSpec> HANDLERS = List.of(
            new HandlerSpec("io.tally.writer.WriterHandler", WRITER_JAR, DeploymentTemplate.WRITER_FUNCTION, "writer",
                    "POST /users (APIGatewayV2HTTPEvent, payload 2.0)", "status=201"),
            new HandlerSpec("io.tally.stream.WindowedStreamHandler", STREAM_JAR, DeploymentTemplate.STREAM_FUNCTION,
                    "windowed", "DynamodbTimeWindowEvent: user, post and comment inserted (3 records)", "failures=0"),
            // Not deployed: the handler for a mapping without a tumbling window, in the stream processor's jar.
            new HandlerSpec("io.tally.stream.StreamHandler", STREAM_JAR, DeploymentTemplate.STREAM_FUNCTION, "plain",
                    "DynamodbEvent: user, post and comment inserted (3 records)", "failures=0"));

    private ColdStart() {
    }

    /** The child's line, parsed; null when the line is not the harness's. */
    record ChildLine(double constructMs, double eventMs, double invokeMs, String outcome) {
    }

    static ChildLine parse(String line) {
        Matcher m = LINE.matcher(line.trim());
        if (!m.matches()) {
            return null;
        }
        return new ChildLine(Long.parseLong(m.group(1)) / 1e6, Long.parseLong(m.group(2)) / 1e6,
                Long.parseLong(m.group(3)) / 1e6, m.group(4));
    }

    /** The Lambda jars under the repository root, or an error that says how to build them. */
    static Map<String, Path> jars(Path repo) {
        Map<String, Path> jars = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String jar : List.of(WRITER_JAR, STREAM_JAR)) {
            Path path = repo.resolve(jar);
            if (Files.isRegularFile(path)) {
                jars.put(jar, path);
            } else {
                missing.add(path.toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Lambda jar(s) not built: " + String.join(", ", missing)
                    + ". Run `mvn -B -ntp package -DskipTests` in the repository root first, and run the benchmark "
                    + "from there (or pass --repo DIR).");
        }
        return jars;
    }

    /** The PutEvents answer that accepts every entry of {@code requestBody}; the number of entries too. */
    static String putEventsResponse(String requestBody, ObjectMapper json) throws IOException {
        JsonNode entries = json.readTree(requestBody).path("Entries");
        StringBuilder out = new StringBuilder("{\"FailedEntryCount\":0,\"Entries\":[");
        for (int i = 0; i < entries.size(); i++) {
            out.append(i == 0 ? "" : ",").append("{\"EventId\":\"cold-").append(i).append("\"}");
        }
        return out.append("]}").toString();
    }

    static ColdStartResults run(Path repo, int runs) throws IOException, InterruptedException {
        Map<String, Path> jars = jars(repo);
        Path harnessDir = Files.createTempDirectory("tally-cold-start");
        Path harnessClass = harnessDir.resolve("io/tally/bench/ColdStartHarness.class");
        Files.createDirectories(harnessClass.getParent());
        try (InputStream in = ColdStart.class.getResourceAsStream("/io/tally/bench/ColdStartHarness.class")) {
            if (in == null) {
                throw new IllegalStateException("ColdStartHarness.class not found in the benchmark's jar");
            }
            Files.write(harnessClass, in.readAllBytes());
        }
        ObjectMapper json = new ObjectMapper();
        AtomicInteger eventsReceived = new AtomicInteger();
        HttpServer eventBridge = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        eventBridge.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            byte[] answer = putEventsResponse(body, json).getBytes(StandardCharsets.UTF_8);
            eventsReceived.addAndGet(json.readTree(body).path("Entries").size());
            exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        eventBridge.start();
        List<ColdStartResults.HandlerResult> handlers = new ArrayList<>();
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            DynamoDbClient admin = server.client();
            admin.createTable(TableDefinition.createTableRequest(TABLE));
            Map<String, String> env = new LinkedHashMap<>();
            env.put("TABLE_NAME", TABLE);
            env.put("AWS_REGION", "us-east-1");
            env.put("DYNAMODB_ENDPOINT", server.endpoint().toString());
            env.put("EVENT_BUS_NAME", EVENT_BUS);
            env.put("EVENTBRIDGE_ENDPOINT", "http://127.0.0.1:" + eventBridge.getAddress().getPort());
            env.put("AWS_ACCESS_KEY_ID", "local");
            env.put("AWS_SECRET_ACCESS_KEY", "local");
            for (HandlerSpec spec : HANDLERS) {
                List<ColdStartResults.Run> measured = new ArrayList<>();
                for (int run = 1; run <= runs; run++) {
                    int itemsBefore = count(admin);
                    int eventsBefore = eventsReceived.get();
                    ColdStartResults.Run result = launch(spec, jars.get(spec.jar()), harnessDir, env, run);
                    if (!result.outcome().equals(spec.expectedOutcome())) {
                        throw new IllegalStateException(spec.handler() + " run " + run + " answered "
                                + result.outcome() + ", expected " + spec.expectedOutcome());
                    }
                    int itemsWritten = count(admin) - itemsBefore;
                    int events = eventsReceived.get() - eventsBefore;
                    if (itemsWritten <= 0 || (!spec.kind().equals("writer") && events <= 0)) {
                        throw new IllegalStateException(spec.handler() + " run " + run + " wrote " + itemsWritten
                                + " items and published " + events + " events");
                    }
                    LOG.info("{} run {}: {} ms to the end of the first invocation (constructor {} ms, first event "
                                    + "{} ms; {} items written, {} events published)", spec.handler(), run,
                            Report.fmt(result.totalMs(), 0), Report.fmt(result.constructMs(), 0),
                            Report.fmt(result.eventMs() + result.invokeMs(), 0), itemsWritten, events);
                    measured.add(result);
                }
                handlers.add(summarize(spec, measured));
            }
        } finally {
            eventBridge.stop(0);
        }
        List<ColdStartResults.Jar> jarSizes = new ArrayList<>();
        jarSizes.add(new ColdStartResults.Jar("writer", WRITER_JAR, Files.size(jars.get(WRITER_JAR)),
                List.of("io.tally.writer.WriterHandler")));
        jarSizes.add(new ColdStartResults.Jar("stream processor", STREAM_JAR, Files.size(jars.get(STREAM_JAR)),
                List.of("io.tally.stream.WindowedStreamHandler", "io.tally.stream.StreamHandler")));
        Runtime runtime = Runtime.getRuntime();
        ColdStartResults.Environment environment = new ColdStartResults.Environment(
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                COMMAND.replace("--runs 5", "--runs " + runs),
                runtime.availableProcessors(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                "DynamoDB Local " + Bench.dynamoDbLocalVersion() + ", server mode over HTTP in the benchmark's JVM",
                runs);
        return new ColdStartResults(environment, jarSizes, handlers, TARGET_MS);
    }

    static ColdStartResults.HandlerResult summarize(HandlerSpec spec, List<ColdStartResults.Run> runs) {
        ColdStartResults.Summary total = ColdStartResults.Summary.of(runs.stream().map(ColdStartResults.Run::totalMs).toList());
        return new ColdStartResults.HandlerResult(spec.handler(), spec.jar(), spec.event(), spec.javaToolOptions(),
                runs, total,
                ColdStartResults.Summary.of(runs.stream().map(ColdStartResults.Run::constructMs).toList()),
                ColdStartResults.Summary.of(runs.stream().map(r -> r.eventMs() + r.invokeMs()).toList()),
                ColdStartResults.Summary.of(runs.stream()
                        .map(r -> r.totalMs() - r.constructMs() - r.eventMs() - r.invokeMs()).toList()),
                total.median() < TARGET_MS);
    }

    private static int count(DynamoDbClient admin) {
        return admin.scanPaginator(r -> r.tableName(TABLE).select(Select.COUNT).consistentRead(true)).stream()
                .mapToInt(page -> page.count()).sum();
    }

    private static ColdStartResults.Run launch(HandlerSpec spec, Path jar, Path harnessDir, Map<String, String> env,
                                               int run) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(jar.toAbsolutePath() + File.pathSeparator + harnessDir.toAbsolutePath());
        command.add(ColdStartHarness.class.getName());
        command.add(spec.handler());
        command.add(spec.kind());
        command.add(Integer.toString(run));
        File stderr = File.createTempFile("tally-cold-start", ".err");
        stderr.deleteOnExit();
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.to(stderr));
        // Only the function's environment, as Lambda gives it, with the JIT flags its template sets.
        builder.environment().clear();
        builder.environment().putAll(env);
        String options = spec.javaToolOptions();
        if (!options.isEmpty()) {
            builder.environment().put("JAVA_TOOL_OPTIONS", options);
        }

        long started = System.nanoTime();
        Process process = builder.start();
        ChildLine line = null;
        long ended = 0;
        StringBuilder output = new StringBuilder();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                ChildLine parsed = parse(text);
                if (parsed != null && line == null) {
                    ended = System.nanoTime();
                    line = parsed;
                } else if (output.length() < 4000) {
                    output.append(text).append('\n');
                }
            }
        }
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        if (line == null) {
            throw new IllegalStateException(spec.handler() + " run " + run + " printed no result (exit "
                    + process.exitValue() + ")\nstdout:\n" + output + "stderr:\n" + Files.readString(stderr.toPath()));
        }
        return new ColdStartResults.Run((ended - started) / 1e6, line.constructMs(), line.eventMs(), line.invokeMs(),
                line.outcome());
    }
}
