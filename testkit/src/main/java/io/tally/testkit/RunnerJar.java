package io.tally.testkit;

import io.tally.core.domain.DomainRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code tally-local.jar} as a user runs it, in JVMs of its own: for the tests of a domain of one's own that check its
 * jar with {@code --domain-jar}, the runner serving it and {@code verify} after a random workload.
 *
 * @param jar the runner's jar, as the build makes it
 */
public record RunnerJar(Path jar) {
    private static final Pattern WRITER = Pattern.compile("^ {2}writer API +(\\S+)", Pattern.MULTILINE);
    private static final Pattern DYNAMODB = Pattern.compile("^ {2}DynamoDB Local +(\\S+)", Pattern.MULTILINE);

    /** A command that ended: its exit status and output. */
    public record Result(int status, String out, String err) {
    }

    /** The runner, up once it printed its summary, with its writer API and DynamoDB Local endpoints. */
    public record Child(Process process, URI base, URI dynamoDb) implements AutoCloseable {
        /** One HTTP call to the writer API. */
        public HttpResponse<String> call(String method, String path, String body)
                throws IOException, InterruptedException {
            return ApiCalls.send(base, method, path, body, null);
        }

        /** A client of the runner's DynamoDB Local (its table is {@code tally}). */
        public DynamoDbClient dynamoDbClient() {
            return DynamoDbClient.builder().endpointOverride(dynamoDb).region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                    .httpClient(UrlConnectionHttpClient.create()).build();
        }

        /**
         * A random workload of every domain's default part and the named ones, {@code steps} writes straight to the
         * runner's table (the local stream poller derives them).
         */
        public void workload(int steps, String... parts) {
            try (DynamoDbClient dynamo = dynamoDbClient()) {
                Workload workload = new Workload(DomainRegistry.load(), write -> {
                    if (write.isDelete()) {
                        dynamo.deleteItem(r -> r.tableName("tally").key(write.key().toAttributeMap()));
                    } else {
                        dynamo.putItem(r -> r.tableName("tally").item(write.item()));
                    }
                }, 28, 1.1, false);
                for (String part : parts) {
                    workload = workload.with(part);
                }
                workload.run(steps);
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** A command of the jar that ends by itself (e.g. {@code verify}), its output kept in {@code logs}. */
    public Result run(Path logs, String name, String... arguments) throws IOException, InterruptedException {
        Path out = logs.resolve(name + ".out");
        Path err = logs.resolve(name + ".err");
        Process process = new ProcessBuilder(java(arguments)).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        int status = process.waitFor();
        return new Result(status, Files.readString(out), Files.readString(err));
    }

    /**
     * {@code verify} with these arguments until it exits 0 (the runner's stream processor still draining), at most
     * 60 times half a second apart; its last result.
     */
    public Result verifyOnceDrained(Path logs, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("verify"));
        command.addAll(List.of(arguments));
        Result verify = null;
        for (int attempt = 0; attempt < 60; attempt++) {
            verify = run(logs, "verify-" + attempt, command.toArray(String[]::new));
            if (verify.status() == 0) {
                break;
            }
            Thread.sleep(500);
        }
        return verify;
    }

    /** The runner with free ports and these arguments, once it printed its summary (at most 90 s). */
    public Child start(Path logs, String name, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("--port", "0", "--dynamodb-port", "0", "--events-port", "0"));
        command.addAll(List.of(arguments));
        Path out = logs.resolve(name + ".out");
        Process process = new ProcessBuilder(java(command.toArray(String[]::new))).redirectOutput(out.toFile())
                .redirectError(logs.resolve(name + ".err").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            String printed = Files.readString(out);
            Matcher writer = WRITER.matcher(printed);
            Matcher dynamoDb = DYNAMODB.matcher(printed);
            if (printed.contains("Ctrl-C to stop") && writer.find() && dynamoDb.find()) {
                return new Child(process, URI.create(writer.group(1)), URI.create(dynamoDb.group(1)));
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("tally-local exited with " + process.exitValue() + ": "
                        + Files.readString(logs.resolve(name + ".err")));
            }
            Thread.sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("tally-local did not start in time: " + Files.readString(out));
    }

    /** The count {@code verify} printed of base items it could not read. */
    public static long unreadable(String verifyOutput) {
        Matcher count = Pattern.compile("(\\d+) unreadable base items").matcher(verifyOutput);
        if (!count.find()) {
            throw new AssertionError("verify printed no count of unreadable base items: " + verifyOutput);
        }
        return Long.parseLong(count.group(1));
    }

    private List<String> java(String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar.toString()));
        command.addAll(List.of(arguments));
        return command;
    }
}
