package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.testkit.LambdaJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        List<String> names = LambdaJars.entries(JAR);
        // A logging backend (without one SLF4J drops every warning the function logs): java.util.logging's.
        assertThat(names).contains("org/slf4j/jul/JULServiceProvider.class",
                "io/tally/core/logging/LambdaLogging.class");
        assertThat(names).contains("io/tally/writer/WriterHandler.class", "io/tally/domains/blog/BlogKeys.class", "io/tally/core/domain/DomainRegistry.class", "org/crac/Resource.class",
                "software/amazon/awssdk/http/urlconnection/UrlConnectionHttpClient.class",
                "com/amazonaws/services/lambda/runtime/events/APIGatewayV2HTTPEvent.class");
        assertThat(names).noneMatch(LambdaJars::forbidden);
        // joda-time serves only event classes the writer does not take (a scheduled event's time).
        assertThat(names).noneMatch(name -> name.startsWith("org/joda/time/"));
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
        // Never called: without AUTH_ENABLED the function checks access, and a write without verified claims is
        // refused before any DynamoDB call.
        String output = LambdaJars.run(JAR, source, Map.of("TABLE_NAME", "tally", "AWS_REGION", "us-east-1",
                "DYNAMODB_ENDPOINT", "http://127.0.0.1:9"));

        assertThat(output).contains("status 401").contains("\"unauthorized\"");
    }

    @Test
    void logs_areJsonLines_withTheInvocationsFields(@TempDir Path dir) throws Exception {
        LambdaJars.assertLogsJsonLines(JAR, dir);
    }
}
