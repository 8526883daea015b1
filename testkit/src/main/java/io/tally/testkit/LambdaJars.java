package io.tally.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
