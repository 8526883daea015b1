package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering of the writer's main sources, read from their text: the root assembles the domains, the domains
 * build on core's http and store packages and on stats, and routes reach the table only through stores. (That no package cycle exists
 * anywhere is {@code ArchitectureTest}'s in the infra module.)
 */
class PackageDependenciesTest {
    private static final Path SOURCES = Path.of("src/main/java/io/tally/writer");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.tally\\.writer(?:\\.[a-z]\\w*)*)\\.[A-Z]");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    private static Map<String, String> sources() {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            Map<String, String> sources = new TreeMap<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.put(file.toString(), COMMENT.matcher(Files.readString(file)).replaceAll(""));
            }
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Set<String>> graph() {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String code : sources().values()) {
            Matcher declared = PACKAGE.matcher(code);
            assertThat(declared.find()).isTrue();
            Set<String> targets = graph.computeIfAbsent(declared.group(1), p -> new TreeSet<>());
            Matcher reference = REFERENCE.matcher(code);
            while (reference.find()) {
                if (!reference.group(1).equals(declared.group(1))) {
                    targets.add(reference.group(1));
                }
            }
        }
        return graph;
    }

    @Test
    void packages_domains_dependOnlyOnTheSharedPackages() {
        Map<String, Set<String>> graph = graph();
        // http and store are core's now (io.tally.core.http, io.tally.core.store), outside the writer's own graph.
        Set<String> shared = Set.of("io.tally.writer.stats");
        assertThat(graph.get("io.tally.writer.blog")).isSubsetOf(shared);
        assertThat(graph.get("io.tally.writer.catalogue")).isSubsetOf(shared);
        assertThat(graph.get("io.tally.writer.orgs")).isSubsetOf(shared);
        assertThat(graph.get("io.tally.writer.songs")).isSubsetOf(shared);
        assertThat(graph.get("io.tally.writer.stats")).isSubsetOf(shared);
    }

    @Test
    void routes_reachTheTableOnlyThroughStores() {
        sources().forEach((file, code) -> {
            if (file.endsWith("Routes.java")) {
                assertThat(code).as(file).doesNotContain(".dynamo()").doesNotContain("DynamoDbClient");
            }
        });
    }
}
