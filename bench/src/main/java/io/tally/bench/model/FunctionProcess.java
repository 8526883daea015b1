package io.tally.bench.model;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The stream processor function as a process of its own ({@link FunctionMain}), handed invocations on a pipe: the
 * parent side of the CPU-confined model (a loopback socket, not the process's pipes: its standard output and error
 * are its log). It starts the JVM with the function's {@code JAVA_TOOL_OPTIONS} and
 * environment, pinned to one core ({@code taskset}) when asked, and once the handler is built moves it under a CPU
 * quota ({@link CpuQuota}): from then on the function has the share of a core its memory setting buys, whatever the
 * host has. The records' JSON is written here (outside the quota) and read in the function by the runtime's
 * serialization (inside it), as Lambda's runtime reads an event.
 */
final class FunctionProcess implements RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse>,
        AutoCloseable {
    /**
     * How the function process runs.
     *
     * @param javaToolOptions the function's {@code JAVA_TOOL_OPTIONS} (the template's)
     * @param heapMegabytes   its heap
     * @param core            the core it is pinned to, or -1 for none
     * @param environment     its environment variables (table, bus, endpoints, credentials)
     * @param properties      its system properties (the model's: {@link ModelState})
     * @param log             where its standard error goes
     */
    record Launch(String javaToolOptions, int heapMegabytes, int core, Map<String, String> environment,
                  Map<String, String> properties, Path log) {
    }

    /**
     * A system property of the bench: JVM options added to the function process's, space-separated; {@value #RUN}
     * in them stands for the run's name (its log's, e.g. {@code model-3}), so that each run's profile has a file.
     */
    static final String EXTRA_OPTIONS = "tally.model.functionOptions";
    /**
     * A system property of the bench: environment variables added to the function's, {@code NAME=value} pairs
     * separated by commas, e.g. {@code DERIVED_WRITE_CONCURRENCY=32}.
     */
    static final String EXTRA_ENVIRONMENT = "tally.model.functionEnvironment";

    /** The variables {@link #EXTRA_ENVIRONMENT} names. */
    static Map<String, String> extraEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        for (String pair : System.getProperty(EXTRA_ENVIRONMENT, "").split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException(EXTRA_ENVIRONMENT + " takes NAME=value pairs, not '" + pair + "'");
            }
            env.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
        }
        return env;
    }

    /** What {@link #EXTRA_OPTIONS} replace with the run's name. */
    static final String RUN = "{run}";

    /** How long the function process may take to start and connect. */
    static final Duration CONNECT_TIMEOUT = Duration.ofMinutes(2);

    private final Process process;
    private final DataOutputStream in;
    private final DataInputStream out;
    private final ObjectMapper json = new ObjectMapper();
    private final PojoSerializer<DynamodbEvent> events =
            LambdaEventSerializers.serializerFor(DynamodbEvent.class, FunctionProcess.class.getClassLoader());
    private JsonNode lastAnswer;
    private Echoes echoes;

    /** Hands the instants of the function's successful writes to {@code echoes} after each invocation. */
    void echoTo(Echoes echoes) {
        this.echoes = echoes;
    }

    private final Socket socket;

    private FunctionProcess(Process process, Socket socket) throws IOException {
        this.process = process;
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        this.out = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    /** Starts the function process and waits until its handler is built. */
    static FunctionProcess start(Launch launch) {
        List<String> command = new ArrayList<>();
        if (launch.core() >= 0) {
            command.addAll(List.of("taskset", "-c", Integer.toString(launch.core())));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + launch.heapMegabytes() + "m");
        // Extra JVM options for the function process, e.g. a Flight Recorder profile of where its CPU goes.
        String run = launch.log().getFileName().toString().replaceFirst("\\.log$", "");
        String extra = System.getProperty(EXTRA_OPTIONS, "").trim().replace(RUN, run);
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split("\\s+")));
        }
        launch.properties().forEach((name, value) -> command.add("-D" + name + "=" + value));
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), FunctionMain.class.getName(),
                    Integer.toString(listening.getLocalPort())));
            Files.createDirectories(launch.log().toAbsolutePath().getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(launch.log().toFile()));
            builder.environment().putAll(launch.environment());
            builder.environment().put("JAVA_TOOL_OPTIONS", launch.javaToolOptions());
            Process process = builder.start();
            listening.setSoTimeout((int) CONNECT_TIMEOUT.toMillis());
            Socket socket;
            try {
                socket = listening.accept();
            } catch (SocketTimeoutException e) {
                process.destroyForcibly();
                throw new IllegalStateException("the function process did not connect within " + CONNECT_TIMEOUT
                        + " (log: " + launch.log() + ")", e);
            }
            FunctionProcess function = new FunctionProcess(process, socket);
            String ready = new String(FunctionMain.read(function.out), StandardCharsets.UTF_8);
            if (!ready.equals(FunctionMain.READY)) {
                function.close();
                throw new IllegalStateException("the function process said " + ready + " (log: " + launch.log() + ")");
            }
            return function;
        } catch (IOException e) {
            throw new UncheckedIOException("the function process did not start (log: " + launch.log() + ")", e);
        }
    }

    long pid() {
        return process.pid();
    }

    @Override
    public TimeWindowEventResponse handleRequest(DynamodbTimeWindowEvent event, Context context) {
        try {
            DynamodbEvent records = new DynamodbEvent();
            records.setRecords(event.getRecords());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            events.toJson(records, bytes);
            Map<String, Object> window = new LinkedHashMap<>();
            window.put("shardId", event.getShardId());
            window.put("eventSourceArn", event.getEventSourceArn());
            window.put("start", event.getWindow().getStart());
            window.put("end", event.getWindow().getEnd());
            window.put("state", event.getState());
            window.put("final", Boolean.TRUE.equals(event.getIsFinalInvokeForWindow()));
            in.write(FunctionMain.INVOKE);
            FunctionMain.write(in, bytes.toByteArray());
            FunctionMain.write(in, json.writeValueAsBytes(window));
            JsonNode answer = json.readTree(FunctionMain.read(out));
            lastAnswer = answer;
            if (echoes != null && answer.has("written")) {
                long[] written = new long[answer.get("written").size()];
                for (int i = 0; i < written.length; i++) {
                    written[i] = answer.get("written").get(i).asLong();
                }
                echoes.written(written);
            }
            if (!answer.get("ok").asBoolean()) {
                throw new IllegalStateException("function error: " + answer.get("error").asText());
            }
            Map<String, String> state = new LinkedHashMap<>();
            answer.get("state").fields()
                    .forEachRemaining(field -> state.put(field.getKey(), field.getValue().asText()));
            List<TimeWindowEventResponse.BatchItemFailure> failures = new ArrayList<>();
            answer.get("failures")
                    .forEach(id -> failures.add(new TimeWindowEventResponse.BatchItemFailure(id.asText())));
            return new TimeWindowEventResponse(state, failures);
        } catch (IOException e) {
            throw new UncheckedIOException("the function process stopped answering", e);
        }
    }

    /**
     * Gives the function's model new settings ({@link ModelState}), its counters fresh: e.g. after an unmeasured
     * warm-up with time running fast and no throttles, the measured part at the run's scale.
     *
     * @param putEventsPerSecond 0 for no PutEvents quota
     */
    void model(double scale, long seed, double partitionWriteUnits, double putEventsPerSecond) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("scale", scale);
        settings.put("seed", seed);
        settings.put("partitionWriteUnits", partitionWriteUnits);
        settings.put("putEventsPerSecond", putEventsPerSecond);
        try {
            in.write(FunctionMain.MODEL);
            FunctionMain.write(in, json.writeValueAsBytes(settings));
            JsonNode answer = json.readTree(FunctionMain.read(out));
            if (!answer.path("ok").asBoolean()) {
                throw new IllegalStateException("the function process refused the model's settings: " + answer);
            }
            lastAnswer = answer;
        } catch (IOException e) {
            throw new UncheckedIOException("the function process stopped answering", e);
        }
    }

    /** Asks the function process for its figures ({@link #cpuNanos}, {@link #compileMillis}, {@link #gcMillis}). */
    void status() {
        try {
            in.write(FunctionMain.STATUS);
            in.flush();
            lastAnswer = json.readTree(FunctionMain.read(out));
        } catch (IOException e) {
            throw new UncheckedIOException("the function process stopped answering", e);
        }
    }

    /**
     * Waits, the process idle, until its JIT has compiled what it had queued: until its compilers' time has stood
     * still for {@code quiet}, or {@code limit} has passed.
     *
     * @return whether the JIT went quiet within the limit
     */
    boolean awaitQuietJit(Duration quiet, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        status();
        long last = compileMillis();
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            status();
            if (compileMillis() != last) {
                last = compileMillis();
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= quiet.toNanos()) {
                return true;
            }
        }
        return false;
    }

    /** The model's counters as of the last answer ({@link ModelState#counters}), zero before any. */
    double counter(String name) {
        return lastAnswer == null || !lastAnswer.get("counters").has(name) ? 0
                : lastAnswer.get("counters").get(name).asDouble();
    }

    /** The function process's CPU time as of the last answer, in nanoseconds. */
    long cpuNanos() {
        return lastAnswer == null ? 0 : lastAnswer.get("cpuNanos").asLong();
    }

    /**
     * The time the function process's JIT compilers have spent, as of the last {@link #status}, in milliseconds (the
     * JVM's {@code CompilationMXBean}): how far its JIT is from its steady state.
     */
    long compileMillis() {
        return lastAnswer == null ? 0 : lastAnswer.path("compileMillis").asLong();
    }

    /** The time the function process's garbage collections have taken, as of the last {@link #status}, in ms. */
    long gcMillis() {
        return lastAnswer == null ? 0 : lastAnswer.path("gcMillis").asLong();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Ends anyway below.
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
