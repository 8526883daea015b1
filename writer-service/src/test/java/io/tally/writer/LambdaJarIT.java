package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Lambda deployment package, {@code target/tally-writer.jar} (built by {@code mvn package}): it holds the
 * handler and its runtime dependencies and nothing heavier, and the handler loads and serves a request from that
 * jar alone, in a separate JVM, as the Lambda runtime would load it.
 */
class LambdaJarIT {
    private static final Path JAR = Path.of(System.getProperty("tally.lambdaJar", "target/tally-writer.jar"));

    @Test
    void jar_holdsTheHandlerAndItsRuntime_withoutTestOrHeavyDependencies() throws IOException {
        assertThat(JAR).exists();
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            List<String> names = zip.stream().map(entry -> entry.getName()).toList();
            // A logging backend: without one SLF4J drops every warning the function logs.
            assertThat(names).contains("org/slf4j/simple/SimpleLogger.class");
            assertThat(names).contains("io/tally/writer/WriterHandler.class", "io/tally/core/Keys.class", "org/crac/Resource.class",
                    "software/amazon/awssdk/http/urlconnection/UrlConnectionHttpClient.class",
                    "com/amazonaws/services/lambda/runtime/events/APIGatewayV2HTTPEvent.class");
            assertThat(names).noneMatch(name -> name.startsWith("software/amazon/dynamodb/services/local/")
                    || name.startsWith("com/amazonaws/services/dynamodbv2/local/")
                    || name.startsWith("software/amazon/awssdk/http/apache/")
                    || name.startsWith("software/amazon/awssdk/http/nio/")
                    || name.startsWith("io/netty/")
                    || name.startsWith("org/apache/http/")
                    || name.startsWith("org/junit/")
                    || name.startsWith("org/assertj/")
                    || name.endsWith("module-info.class")
                    || name.endsWith(".SF"));
        }
    }

    @Test
    void handler_loadsFromTheJarAlone_inAFreshJvm_andServesARequest(@TempDir Path dir) throws Exception {
        // Java's source launcher compiles this against the jar alone: nothing of the build's class path leaks in.
        Path source = dir.resolve("LoadWriter.java");
        Files.writeString(source, """
                import com.amazonaws.services.lambda.runtime.RequestHandler;
                import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
                import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
                import java.util.Map;

                public class LoadWriter {
                    @SuppressWarnings("unchecked")
                    public static void main(String[] args) throws Exception {
                        var handler = (RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>)
                                Class.forName("io.tally.writer.WriterHandler").getConstructor().newInstance();
                        var event = APIGatewayV2HTTPEvent.builder()
                                .withRawPath("/users")
                                .withHeaders(Map.of("content-type", "application/json"))
                                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                                .withMethod("POST").withPath("/users").build())
                                        .build())
                                .withBody("{\\"name\\":\\"\\",\\"email\\":\\"a@example.com\\"}")
                                .withIsBase64Encoded(false)
                                .build();
                        var response = handler.handleRequest(event, null);
                        System.out.println("status " + response.getStatusCode() + " " + response.getBody());
                    }
                }
                """);
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", JAR.toAbsolutePath().toString(), source.toString())
                .redirectErrorStream(true);
        builder.environment().remove("CLASSPATH");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().put("TABLE_NAME", "tally");
        builder.environment().put("AWS_REGION", "us-east-1");
        // Never called: the request fails validation before any DynamoDB call.
        builder.environment().put("DYNAMODB_ENDPOINT", "http://127.0.0.1:9");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("child JVM exited").isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).as("SLF4J finds its backend in the jar").doesNotContain("No SLF4J providers");
        assertThat(output).contains("status 400").contains("validation_failed");
    }
}
