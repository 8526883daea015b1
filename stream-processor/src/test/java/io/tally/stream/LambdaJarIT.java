package io.tally.stream;

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
 * The Lambda deployment package, {@code target/tally-stream-processor.jar} (built by {@code mvn package}): both
 * handlers and their runtime dependencies, nothing heavier, at most 20 MB; each handler loads and handles an
 * event from that jar alone, in a separate JVM, as the Lambda runtime would load it.
 */
class LambdaJarIT {
    private static final Path JAR = Path.of(System.getProperty("tally.lambdaJar", "target/tally-stream-processor.jar"));
    private static final long MAX_BYTES = 20L * 1024 * 1024;

    @Test
    void jar_holdsBothHandlersAndTheirRuntime_withoutTestOrHeavyDependencies() throws IOException {
        assertThat(JAR).exists();
        assertThat(Files.size(JAR)).isLessThanOrEqualTo(MAX_BYTES);
        List<String> names = LambdaJars.entries(JAR);
        // A logging backend (without one SLF4J drops every warning the function logs): java.util.logging's.
        assertThat(names).contains("org/slf4j/jul/JULServiceProvider.class",
                "io/tally/core/logging/LambdaLogging.class");
        assertThat(names).contains("io/tally/stream/WindowedStreamHandler.class",
                "io/tally/stream/StreamHandler.class", "io/tally/stream/WatermarkPruneHandler.class", "io/tally/core/domain/DomainRegistry.class", "io/tally/domains/blog/Blog.class", "org/crac/Resource.class",
                "software/amazon/awssdk/services/eventbridge/EventBridgeClient.class",
                "software/amazon/awssdk/http/urlconnection/UrlConnectionHttpClient.class");
        assertThat(names).noneMatch(LambdaJars::forbidden);
        // The pruner's scheduled event carries its time as a joda-time DateTime: it stays in this jar.
        assertThat(names).contains("com/amazonaws/services/lambda/runtime/events/ScheduledEvent.class",
                "org/joda/time/DateTime.class");
    }

    @Test
    void handlers_loadFromTheJarAlone_inAFreshJvm_andHandleAnEvent(@TempDir Path dir) throws Exception {
        // Java's source launcher compiles this against the jar alone: nothing of the build's class path leaks in.
        Path source = dir.resolve("LoadStream.java");
        Files.writeString(source, """
                import com.amazonaws.services.lambda.runtime.RequestHandler;
                import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
                import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
                import java.util.List;

                public class LoadStream {
                    @SuppressWarnings("unchecked")
                    public static void main(String[] args) throws Exception {
                        var windowed = (RequestHandler<DynamodbTimeWindowEvent, Object>)
                                Class.forName("io.tally.stream.WindowedStreamHandler").getConstructor().newInstance();
                        DynamodbTimeWindowEvent window = new DynamodbTimeWindowEvent();
                        window.setShardId("shardId-1");
                        window.setRecords(List.of());
                        System.out.println("windowed " + windowed.handleRequest(window, null));
                        var plain = (RequestHandler<DynamodbEvent, Object>)
                                Class.forName("io.tally.stream.StreamHandler").getConstructor().newInstance();
                        DynamodbEvent event = new DynamodbEvent();
                        event.setRecords(List.of());
                        System.out.println("plain " + plain.handleRequest(event, null));
                        System.exit(0);
                    }
                }
                """);
        // The endpoints are never called: an empty batch makes no request.
        String output = LambdaJars.run(JAR, source, Map.of("TABLE_NAME", "tally", "AWS_REGION", "us-east-1",
                "EVENT_BUS_NAME", "tally-events", "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local",
                "DYNAMODB_ENDPOINT", "http://127.0.0.1:9", "EVENTBRIDGE_ENDPOINT", "http://127.0.0.1:9"));

        assertThat(output).contains("windowed TimeWindowEventResponse(state={}, batchItemFailures=[])")
                .contains("plain StreamsEventResponse(batchItemFailures=[])");
    }

    @Test
    void logs_areJsonLines_withTheInvocationsFields(@TempDir Path dir) throws Exception {
        LambdaJars.assertLogsJsonLines(JAR, dir);
    }
}
