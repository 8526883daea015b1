package example.reviews;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.domain.DomainRegistry;
import io.tally.testkit.Workload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The domain as a user runs it: {@code java -jar tally-local.jar --domain-jar tally-example-reviews.jar} in a JVM of
 * its own, with Tally's runner jar and this module's jar exactly as the build makes them; then {@code verify} with the
 * same option. Without the option, none of the domain's routes exist.
 */
class DomainJarIT {
    private static final Path LOCAL_JAR = Path.of(System.getProperty("tally.localJar",
            "../../local-runner/target/tally-local.jar"));
    private static final Path DOMAIN_JAR = Path.of(System.getProperty("tally.domainJar",
            "target/tally-example-reviews.jar"));
    private static final Pattern WRITER = Pattern.compile("^ {2}writer API +(\\S+)", Pattern.MULTILINE);
    private static final Pattern DYNAMODB = Pattern.compile("^ {2}DynamoDB Local +(\\S+)", Pattern.MULTILINE);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path logs;

    @Test
    void withTheDomainJar_itsRoutesServe_andVerifyIsExactAfterARandomWorkload() throws Exception {
        try (Child runner = Child.start(logs, "with", "--domain-jar", DOMAIN_JAR.toString())) {
            call(runner.base, "POST", "/users", "{\"userId\":\"ada\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
            call(runner.base, "PUT", "/items/55", "{\"score\":70,\"selector\":\"back-catalogue\"}");
            HttpResponse<String> created = call(runner.base, "PUT", "/users/ada/reviews/55", "{\"stars\":5}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode document = JSON.readTree(call(runner.base, "GET", "/openapi.json", null).body());
            assertThat(document.path("paths").has("/users/{userId}/reviews/{itemId}")).isTrue();

            // A random workload of every domain's default part and the reviews, written straight to the runner's table.
            try (DynamoDbClient dynamo = client(runner.dynamoDb)) {
                new Workload(DomainRegistry.load(), write -> {
                    if (write.isDelete()) {
                        dynamo.deleteItem(r -> r.tableName("tally").key(write.key().toAttributeMap()));
                    } else {
                        dynamo.putItem(r -> r.tableName("tally").item(write.item()));
                    }
                }, 28, 1.1, false).with("reviews").run(400);
            }

            Result verify = null;
            for (int attempt = 0; attempt < 60; attempt++) {
                verify = run(logs, "verify-" + attempt, "verify", "--domain-jar", DOMAIN_JAR.toString(),
                        "--endpoint", runner.dynamoDb.toString());
                if (verify.status == 0) {
                    break;
                }
                Thread.sleep(500); // the runner's stream processor is still draining
            }
            assertThat(verify.status).as(verify.out).isZero();
            assertThat(verify.out).contains("derived data is exact").contains(" 0 unreadable base items");

            // Without the domain's jar, verify does not know its items: it counts them as unreadable.
            Result without = run(logs, "verify-without", "verify", "--endpoint", runner.dynamoDb.toString());
            assertThat(unreadable(without.out)).as(without.out).isPositive();
        }
    }

    private static long unreadable(String verifyOutput) {
        Matcher count = Pattern.compile("(\\d+) unreadable base items").matcher(verifyOutput);
        assertThat(count.find()).as(verifyOutput).isTrue();
        return Long.parseLong(count.group(1));
    }

    @Test
    void withoutTheDomainJar_itsRoutesDoNotExist() throws Exception {
        try (Child runner = Child.start(logs, "without")) {
            call(runner.base, "POST", "/users", "{\"userId\":\"ada\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
            HttpResponse<String> reply = call(runner.base, "PUT", "/users/ada/reviews/55", "{\"stars\":5}");

            assertThat(reply.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(reply.body()).path("error").path("code").asText()).isEqualTo("not_found");
            assertThat(call(runner.base, "GET", "/stats/items/55/reviews", null).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void aJarThatIsNotADomainJar_isRefusedWithAMessage() throws Exception {
        Result missing = run(logs, "missing", "--domain-jar", "no-such.jar", "--port", "0", "--dynamodb-port", "0",
                "--events-port", "0");
        assertThat(missing.status).isEqualTo(2);
        assertThat(missing.err).contains("--domain-jar no-such.jar: no such file");

        Path empty = logs.resolve("empty.jar");
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(empty), new java.util.jar.Manifest())) {
            jar.putNextEntry(new java.util.jar.JarEntry("readme.txt"));
        }
        Result notADomain = run(logs, "not-a-domain", "verify", "--domain-jar", empty.toString());
        assertThat(notADomain.status).isEqualTo(2);
        assertThat(notADomain.err).contains("lists no domain");
    }

    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    private static HttpResponse<String> call(URI base, String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> java(String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", LOCAL_JAR.toString()));
        command.addAll(List.of(arguments));
        return command;
    }

    /** A command of the runner's jar that ends by itself, its exit status and output. */
    private static Result run(Path logs, String name, String... arguments) throws IOException, InterruptedException {
        Path out = logs.resolve(name + ".out");
        Path err = logs.resolve(name + ".err");
        Process process = new ProcessBuilder(java(arguments)).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        int status = process.waitFor();
        return new Result(status, Files.readString(out), Files.readString(err));
    }

    private record Result(int status, String out, String err) {
    }

    /** {@code tally-local} with free ports, in a JVM of its own, up once it has printed its summary. */
    private record Child(Process process, URI base, URI dynamoDb) implements AutoCloseable {
        static Child start(Path logs, String name, String... arguments) throws IOException, InterruptedException {
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

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
