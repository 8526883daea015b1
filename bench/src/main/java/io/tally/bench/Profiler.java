package io.tally.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples where a processor's own threads spend their CPU during its replay: a JDK Flight Recorder recording of
 * execution samples (every 10 ms of a running thread) in the benchmark's own JVM, read back when the replay ends. Each
 * sample of a thread outside DynamoDB Local is filed under the part of the code that asked for the work: the
 * innermost frame that is not the JDK's (the JDK code a library calls counts as that library's), by its package
 * ({@link #part}); and under that frame's method, for the hottest methods. DynamoDB Local's threads are left out: the
 * emulator's CPU is measured per thread ({@link CpuUse}), and most of it runs in SQLite's native code, which
 * execution samples do not see.
 */
final class Profiler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Profiler.class);
    static final Duration PERIOD = Duration.ofMillis(10);
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    /** The hottest methods kept per profile. */
    static final int METHODS = 8;

    /** Parts of the code, in the order the page lists them. */
    static final String PROCESSOR = "the processor's own code (Tally's engine, or the naive loop; the derivations)";
    static final String SIGNING = "AWS SDK: request signing (SigV4)";
    static final String MARSHALLING = "AWS SDK: JSON marshalling";
    static final String HTTP = "AWS SDK: HTTP client and I/O";
    static final String SDK_OTHER = "AWS SDK: the rest of the pipeline (interceptors, metrics, retries)";
    static final String INSTRUMENTATION = "the benchmark's request counter";
    static final String OTHER = "other libraries (Micrometer, logging, ...)";
    static final String JDK = "the JDK alone";
    static final List<String> PARTS = List.of(PROCESSOR, SIGNING, MARSHALLING, HTTP, SDK_OTHER, INSTRUMENTATION,
            OTHER, JDK);

    private final Recording recording;

    private Profiler(Recording recording) {
        this.recording = recording;
    }

    /** Starts sampling; null when this JVM has no flight recorder (the page then shows no profile). */
    static Profiler start() {
        try {
            Recording recording = new Recording();
            recording.enable(EXECUTION_SAMPLE).withPeriod(PERIOD);
            recording.setToDisk(true);
            recording.start();
            return new Profiler(recording);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("no profile: the flight recorder is not available ({})", e.toString());
            return null;
        }
    }

    /** Stops sampling and files the samples of the threads outside DynamoDB Local. */
    Results.Profile stop() {
        Path file = null;
        try {
            recording.stop();
            file = Files.createTempFile("tally-bench-", ".jfr");
            recording.dump(file);
            Tally tally = new Tally();
            try (RecordingFile events = new RecordingFile(file)) {
                while (events.hasMoreEvents()) {
                    RecordedEvent event = events.readEvent();
                    // Only this recording's samples of running Java code (a dump may hold other recordings' events).
                    if (!event.getEventType().getName().equals(EXECUTION_SAMPLE)) {
                        continue;
                    }
                    RecordedThread thread = event.getThread("sampledThread");
                    if (event.getStackTrace() == null || thread == null || !CpuUse.isProcessor(thread.getJavaName())) {
                        continue;
                    }
                    List<String> frames = new ArrayList<>();
                    for (RecordedFrame frame : event.getStackTrace().getFrames()) {
                        frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
                    }
                    tally.add(frames);
                }
            }
            return tally.profile();
        } catch (IOException | RuntimeException e) {
            LOG.warn("no profile: the recording could not be read back ({})", e.toString());
            return null;
        } finally {
            close();
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.debug("could not delete {}", file, e);
                }
            }
        }
    }

    /** Stops sampling without reading anything (a replay that failed); harmless after {@link #stop}. */
    @Override
    public void close() {
        recording.close();
    }

    /** Counts samples by part and by method. */
    static final class Tally {
        private final Map<String, Integer> parts = new HashMap<>();
        private final Map<String, Integer> methods = new HashMap<>();
        private int samples;

        /** One sample: its frames from the innermost out, each {@code class.method}. */
        void add(List<String> frames) {
            samples++;
            String owner = owner(frames);
            parts.merge(part(owner), 1, Integer::sum);
            methods.merge(owner == null ? "(the JDK: " + (frames.isEmpty() ? "no frames" : frames.get(0)) + ")"
                    : owner, 1, Integer::sum);
        }

        Results.Profile profile() {
            List<Results.Share> byPart = new ArrayList<>();
            for (String part : PARTS) {
                byPart.add(new Results.Share(part, parts.getOrDefault(part, 0)));
            }
            List<Results.Share> hottest = methods.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(METHODS)
                    .map(e -> new Results.Share(e.getKey(), e.getValue()))
                    .toList();
            return new Results.Profile(samples, byPart, hottest);
        }
    }

    /** The innermost frame that is not the JDK's, or null when every frame is. */
    static String owner(List<String> frames) {
        for (String frame : frames) {
            if (!isJdk(frame)) {
                return frame;
            }
        }
        return null;
    }

    /** The part of the code a frame ({@code class.method}, or null for the JDK alone) belongs to. */
    static String part(String frame) {
        if (frame == null) {
            return JDK;
        }
        if (frame.startsWith("io.tally.bench.RequestCounter")) {
            return INSTRUMENTATION;
        }
        if (frame.startsWith("io.tally.")) {
            return PROCESSOR;
        }
        if (frame.startsWith("software.amazon.awssdk.")) {
            String sdk = frame.substring("software.amazon.awssdk.".length());
            if (sdk.startsWith("http.auth.") || sdk.startsWith("auth.") || sdk.contains(".signer.")) {
                return SIGNING;
            }
            if (sdk.startsWith("protocols.") || sdk.startsWith("thirdparty.jackson.") || sdk.startsWith("core.protocol.")
                    || sdk.startsWith("services.dynamodb.model.") || sdk.startsWith("core.SdkBytes")
                    || sdk.startsWith("utils.BinaryUtils")) {
                return MARSHALLING;
            }
            if (sdk.startsWith("http.urlconnection.") || sdk.startsWith("http.apache.") || sdk.startsWith("http.Abortable")
                    || sdk.startsWith("core.internal.io.")) {
                return HTTP;
            }
            return SDK_OTHER;
        }
        return OTHER;
    }

    static boolean isJdk(String frame) {
        return frame.startsWith("java.") || frame.startsWith("javax.") || frame.startsWith("jdk.")
                || frame.startsWith("sun.") || frame.startsWith("com.sun.");
    }
}
