package io.tally.domains;

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
 * Each seed domain is a slice, read from the sources' text: a domain's package names no other domain's package (what
 * one domain needs of another goes through core's lookups and shared counters), and routes reach the table only
 * through stores.
 */
class DomainSlicesTest {
    private static final Path SOURCES = Path.of("src/main/java/io/tally/domains");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.tally\\.domains\\.[a-z]\\w*)\\.[A-Z]");
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

    @Test
    void aDomain_namesNoOtherDomain() {
        Map<String, Set<String>> references = new TreeMap<>();
        for (String code : sources().values()) {
            Matcher declared = PACKAGE.matcher(code);
            assertThat(declared.find()).isTrue();
            Set<String> targets = references.computeIfAbsent(declared.group(1), p -> new TreeSet<>());
            Matcher reference = REFERENCE.matcher(code);
            while (reference.find()) {
                if (!reference.group(1).equals(declared.group(1))) {
                    targets.add(reference.group(1));
                }
            }
        }
        assertThat(references).containsOnlyKeys("io.tally.domains.blog", "io.tally.domains.catalogue",
                "io.tally.domains.orgs", "io.tally.domains.songs", "io.tally.domains.favs");
        references.forEach((domain, targets) -> assertThat(targets).as(domain).isEmpty());
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
