package io.tally.bench.model;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.amazonaws.services.lambda.runtime.events.models.TimeWindow;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.local.lambda.LocalLambdaContext;
import io.tally.stream.WindowedStreamHandler;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stream processor function in a process of its own, run by {@link FunctionProcess}: what the Lambda Java
 * runtime does for an invocation, on a pipe. It builds the deployed handler ({@link WindowedStreamHandler}, wired from
 * its environment as in Lambda), connects to the parent's loopback socket (its port the one argument), says it is
 * ready, and then per invocation reads the event's JSON, deserialises it with the runtime's own serialization, calls
 * the handler and answers with its response and what the model counted. Standard output and error (the handler's
 * logs and metrics, the JVM's own messages) stay free for the log, as in Lambda.
 *
 * <p>Frames on the socket: a length (4 bytes) and that many bytes of UTF-8 JSON. In, per request, its kind (one
 * byte) and its frames: {@value #INVOKE} the records as a {@code DynamodbEvent}, then the window's fields;
 * {@value #MODEL} the model's new settings ({@link ModelState#install}: scale, seed, partition write units, PutEvents
 * quota), with fresh counters, e.g. for the measured part after an unmeasured warm-up at another scale;
 * {@value #STATUS} nothing, for the process's figures alone (its CPU, its JIT's and its collector's time). Out: one
 * answer per request.
 */
public final class FunctionMain {
    static final String READY = "{\"ready\":true}";
    /** A request's kind: an invocation. */
    static final char INVOKE = 'I';
    /** A request's kind: new model settings. */
    static final char MODEL = 'M';
    /** A request's kind: the answer's figures only. */
    static final char STATUS = 'S';

    private FunctionMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: FunctionMain <port of the parent's loopback socket>");
        }
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
        socket.setTcpNoDelay(true);
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        ObjectMapper json = new ObjectMapper();
        WindowedStreamHandler handler = new WindowedStreamHandler();
        ClassLoader loader = FunctionMain.class.getClassLoader();
        PojoSerializer<DynamodbEvent> events = LambdaEventSerializers.serializerFor(DynamodbEvent.class, loader);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        write(out, READY.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        while (true) {
            int kind = in.read();
            if (kind < 0) {
                return;
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            if (kind == MODEL) {
                install(json.readTree(read(in)));
                answer.put("ok", true);
            } else if (kind == STATUS) {
                answer.put("ok", true);
                answer.put("compileMillis", ManagementFactory.getCompilationMXBean().getTotalCompilationTime());
                answer.put("gcMillis", ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionTime).sum());
            } else if (kind == INVOKE) {
                invoke(handler, events, read(in), json.readTree(read(in)), json, answer);
            } else {
                throw new IllegalStateException("unknown request kind " + kind);
            }
            ModelState model = ModelState.get();
            answer.put("counters", model == null ? Map.of() : model.counters());
            answer.put("written", model == null ? new long[0] : model.drainWritten());
            answer.put("cpuNanos", os.getProcessCpuTime());
            write(out, json.writeValueAsBytes(answer));
        }
    }

    /**
     * Makes the settings the process's model, its counters fresh. Between requests no call is in flight, and the
     * writes of the last invocation went with its answer.
     */
    private static void install(JsonNode settings) {
        ModelState.install(new ModelState(settings.get("scale").asDouble(), settings.get("seed").asLong(),
                settings.get("partitionWriteUnits").asDouble(), settings.get("putEventsPerSecond").asDouble()));
    }

    /** One invocation, its outcome put in the answer. */
    private static void invoke(WindowedStreamHandler handler, PojoSerializer<DynamodbEvent> events, byte[] records,
                               JsonNode window, ObjectMapper json, Map<String, Object> answer) {
        try {
            DynamodbTimeWindowEvent event = event(events.fromJson(new ByteArrayInputStream(records)), window, json);
            TimeWindowEventResponse response = handler.handleRequest(event,
                    new LocalLambdaContext("tally-stream-processor", Duration.ofSeconds(120), Clock.systemUTC()));
            answer.put("ok", true);
            answer.put("state", response.getState() == null ? Map.of() : response.getState());
            List<String> failures = new ArrayList<>();
            if (response.getBatchItemFailures() != null) {
                response.getBatchItemFailures().forEach(failure -> failures.add(failure.getItemIdentifier()));
            }
            answer.put("failures", failures);
        } catch (RuntimeException e) {
            // As the runtime reports a function error: the invocation failed, the process lives on.
            e.printStackTrace();
            answer.put("ok", false);
            answer.put("error", String.valueOf(e));
        }
    }

    @SuppressWarnings("unchecked")
    private static DynamodbTimeWindowEvent event(DynamodbEvent records, JsonNode window, ObjectMapper json) {
        Map<String, String> state = window.hasNonNull("state")
                ? new HashMap<>(json.convertValue(window.get("state"), Map.class)) : new HashMap<>();
        return DynamodbTimeWindowEvent.builder()
                .withRecords(records.getRecords())
                .withWindow(TimeWindow.builder().withStart(window.get("start").asText())
                        .withEnd(window.get("end").asText()).build())
                .withState(state)
                .withShardId(window.get("shardId").asText())
                .withEventSourceArn(window.get("eventSourceArn").asText())
                .withIsFinalInvokeForWindow(window.get("final").asBoolean())
                .withIsWindowTerminatedEarly(false)
                .build();
    }

    static byte[] read(DataInputStream in) throws IOException {
        int length = in.readInt();
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    static void write(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }
}
