package io.tally.stream;

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
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            List<String> names = zip.stream().map(entry -> entry.getName()).toList();
            // A logging backend: without one SLF4J drops every warning the function logs.
            assertThat(names).contains("org/slf4j/simple/SimpleLogger.class");
            assertThat(names).contains("io/tally/stream/WindowedStreamHandler.class",
                    "io/tally/stream/StreamHandler.class", "io/tally/core/Keys.class", "org/crac/Resource.class",
                    "software/amazon/awssdk/services/eventbridge/EventBridgeClient.class",
                    "software/amazon/awssdk/http/urlconnection/UrlConnectionHttpClient.class");
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
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", JAR.toAbsolutePath().toString(), source.toString())
                .redirectErrorStream(true);
        builder.environment().remove("CLASSPATH");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().put("TABLE_NAME", "tally");
        builder.environment().put("AWS_REGION", "us-east-1");
        builder.environment().put("EVENT_BUS_NAME", "tally-events");
        builder.environment().put("AWS_ACCESS_KEY_ID", "local");
        builder.environment().put("AWS_SECRET_ACCESS_KEY", "local");
        // Never called: an empty batch makes no request.
        builder.environment().put("DYNAMODB_ENDPOINT", "http://127.0.0.1:9");
        builder.environment().put("EVENTBRIDGE_ENDPOINT", "http://127.0.0.1:9");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("child JVM exited").isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).as("SLF4J finds its backend in the jar").doesNotContain("No SLF4J providers");
        assertThat(output).contains("windowed TimeWindowEventResponse(state={}, batchItemFailures=[])")
                .contains("plain StreamsEventResponse(batchItemFailures=[])");
    }
}
