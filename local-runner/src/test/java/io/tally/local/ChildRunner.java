package io.tally.local;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tally-local} in a child JVM, on the test's class path, with free ports: a runner that can be killed with
 * SIGKILL ({@link #kill()}) as a person's {@code kill -9} or a machine's OOM killer would, which a runner in the test's
 * own JVM cannot. Its standard output and error go to files in {@code logDir}, which a failure message names.
 */
final class ChildRunner implements AutoCloseable {
    private static final Pattern WRITER = Pattern.compile("^ {2}writer API +(\\S+)", Pattern.MULTILINE);
    private static final Pattern DYNAMODB = Pattern.compile("^ {2}DynamoDB Local +(\\S+)", Pattern.MULTILINE);
    /** Generous: a start takes a few seconds, but CI machines stall. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path out;
    private final Path err;
    private final URI baseUri;
    private final URI dynamoDbEndpoint;

    private ChildRunner(Process process, Path out, Path err, URI baseUri, URI dynamoDbEndpoint) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.baseUri = baseUri;
        this.dynamoDbEndpoint = dynamoDbEndpoint;
    }

    /**
     * Starts {@code tally-local --data-dir dataDir} with free ports and waits until it has printed its summary (it is
     * then serving).
     */
    static ChildRunner start(Path dataDir, Path logDir, String name) throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        Path out = logDir.resolve(name + ".out");
        Path err = logDir.resolve(name + ".err");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                // A killed runner's invocation holds its shard's lease until this runs out, instead of a minute.
                "-D" + StreamPipeline.TIMEOUT_PROPERTY + "=PT8S",
                "-cp", classPath(),
                LocalRunner.class.getName(),
                "--port", "0", "--dynamodb-port", "0", "--events-port", "0",
                "--data-dir", dataDir.toString()));
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String printed = Files.readString(out);
            Matcher writer = WRITER.matcher(printed);
            Matcher dynamoDb = DYNAMODB.matcher(printed);
            if (printed.contains("Ctrl-C to stop") && writer.find() && dynamoDb.find()) {
                return new ChildRunner(process, out, err, URI.create(writer.group(1)), URI.create(dynamoDb.group(1)));
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("tally-local exited with " + process.exitValue() + " before it was up; "
                        + "see " + out + " and " + err + ":\n" + Files.readString(err));
            }
            Thread.sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException("tally-local did not start within " + START_TIMEOUT + "; see " + out + " and "
                + err);
    }

    /**
     * The test's class path. Failsafe and Surefire start the test JVM with a manifest-only jar and pass the real path
     * in {@code surefire.test.class.path}; an IDE passes it as {@code java.class.path}.
     */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        String path = surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
        return String.join(File.pathSeparator, path.split(File.pathSeparator));
    }

    URI baseUri() {
        return baseUri;
    }

    URI dynamoDbEndpoint() {
        return dynamoDbEndpoint;
    }

    long pid() {
        return process.pid();
    }

    /** Sends SIGKILL (what {@link Process#destroyForcibly()} sends on Linux and macOS) without waiting. */
    void signalKill() {
        process.destroyForcibly();
    }

    /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux and macOS), then waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("tally-local (pid " + process.pid() + ") survived SIGKILL");
        }
    }

    String describe() {
        return "tally-local pid " + process.pid() + " (output in " + out + " and " + err + ")";
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
