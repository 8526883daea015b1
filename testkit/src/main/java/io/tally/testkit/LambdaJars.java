package io.tally.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

/** Checks shared by the Lambda deployment packages' tests ({@code LambdaJarIT} of each function module). */
public final class LambdaJars {
    private LambdaJars() {
    }

    /** The entries of a jar. */
    public static List<String> entries(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().map(entry -> entry.getName()).toList();
        }
    }

    /**
     * Whether a jar entry has no place in a deployment package: DynamoDB Local, the Apache and Netty HTTP clients
     * (the functions use the URL connection client), test libraries, the deployment template and its YAML reader (only
     * the local runner, the benchmark and the template generator read it), module descriptors and signatures.
     */
    public static boolean forbidden(String entry) {
        return entry.startsWith("software/amazon/dynamodb/services/local/")
                || entry.startsWith("com/amazonaws/services/dynamodbv2/local/")
                || entry.startsWith("software/amazon/awssdk/http/apache/")
                || entry.startsWith("software/amazon/awssdk/http/nio/")
                || entry.startsWith("io/netty/")
                || entry.startsWith("org/apache/http/")
                || entry.startsWith("org/junit/")
                || entry.startsWith("org/assertj/")
                // The deployment template and its YAML reader: only the runner, the benchmark and the generator read it.
                || entry.startsWith("org/yaml/snakeyaml/")
                || entry.startsWith("com/fasterxml/jackson/dataformat/yaml/")
                || entry.equals("io/tally/infra/template.yaml")
                || entry.endsWith("module-info.class")
                || entry.endsWith(".SF");
    }

    /**
     * Checks that a function jar logs JSON lines, as its function does in Lambda: in a fresh JVM with the jar alone
     * and its logging installed ({@code LambdaLogging}), a warning with an exception inside an invocation's log
     * ({@code InvocationLog}) and a line after it, each one JSON object on standard output with the fields the
     * functions' lines carry (the invocation's only inside it), and no DEBUG line at the default level.
     *
     * @param dir where the probe's source is written
     */
    public static void assertLogsJsonLines(Path jar, Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("LogLines.java");
        Files.writeString(source, """
                import io.tally.core.logging.InvocationLog;
                import io.tally.core.logging.LambdaLogging;
                import org.slf4j.LoggerFactory;

                public class LogLines {
                    public static void main(String[] args) {
                        LambdaLogging.install(); // as the handlers' production constructors do
                        var log = LoggerFactory.getLogger("io.tally.probe");
                        try (InvocationLog invocation = InvocationLog.open("req-42")) {
                            log.warn("inside {}", "the invocation", new IllegalStateException("boom"));
                        }
                        log.info("after it");
                        log.debug("not at INFO");
                        System.exit(0);
                    }
                }
                """);
        String output = run(jar, source, Map.of("AWS_LAMBDA_FUNCTION_NAME", "tally-probe",
                "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024"));
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.lines().toList()) {
            if (line.startsWith("{")) {
                lines.add(json.readTree(line));
            }
        }
        assertThat(lines).as(output).hasSize(2);
        JsonNode inside = lines.get(0);
        assertThat(inside.path("timestamp").asText()).as(output).matches("\\d{4}-\\d\\d-\\d\\dT[\\d:.]{12}Z");
        assertThat(inside.path("level").asText()).isEqualTo("WARN");
        assertThat(inside.path("message").asText()).isEqualTo("inside the invocation");
        assertThat(inside.path("logger").asText()).isEqualTo("io.tally.probe");
        assertThat(inside.path("function_request_id").asText()).isEqualTo("req-42");
        assertThat(inside.path("cold_start").asText()).isEqualTo("true");
        assertThat(inside.path("function_name").asText()).isEqualTo("tally-probe");
        assertThat(inside.path("function_memory_size").asText()).isEqualTo("1024");
        assertThat(inside.path("errorType").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(inside.path("errorMessage").asText()).isEqualTo("boom");
        assertThat(inside.path("stackTrace").asText()).contains("LogLines.main");
        JsonNode after = lines.get(1);
        assertThat(after.path("level").asText()).isEqualTo("INFO");
        assertThat(after.path("message").asText()).isEqualTo("after it");
        assertThat(after.has("function_request_id")).as(after.toString()).isFalse();
        assertThat(after.has("errorType")).as(after.toString()).isFalse();
    }

    /**
     * Runs a Java source file in a fresh JVM with the jar alone on the class path (the source launcher compiles it
     * against the jar, so nothing of the build's class path leaks in) and the given environment; checks that it
     * exited normally and that SLF4J found its backend in the jar, and returns what it printed.
     */
    public static String run(Path jar, Path source, Map<String, String> environment) throws IOException,
            InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", jar.toAbsolutePath().toString(), source.toString())
                .redirectErrorStream(true);
        builder.environment().remove("CLASSPATH");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("child JVM exited").isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).as("SLF4J finds its backend in the jar").doesNotContain("No SLF4J providers");
        return output;
    }
}
