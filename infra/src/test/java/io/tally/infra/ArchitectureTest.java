package io.tally.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape of the whole code base, read from the main sources of every module: packages depend on each other in
 * one direction only, and no file grows past what a reader holds in mind. It lives here because infra is the module
 * that reads the repository around it (the template, the rules).
 */
class ArchitectureTest {
    /** The modules' main sources, seen from the infra module's directory (where Maven runs its tests). */
    private static final Path REPOSITORY = Path.of("..");
    private static final int MAX_LINES = 350;
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** A type named by its package: an import, or a qualified name in code. */
    private static final Pattern QUALIFIED = Pattern.compile("\\b(io\\.tally(?:\\.[a-z]\\w*)*)\\.[A-Z]");
    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void packages_everyModule_dependInOneDirectionOnly() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path file : mainSources()) {
            String code = COMMENTS.matcher(Files.readString(file)).replaceAll("");
            Matcher declared = PACKAGE.matcher(code);
            assertThat(declared.find()).as("package of %s", file).isTrue();
            Set<String> targets = uses.computeIfAbsent(declared.group(1), p -> new TreeSet<>());
            Matcher named = QUALIFIED.matcher(code.substring(declared.end()));
            while (named.find()) {
                targets.add(named.group(1));
            }
            targets.remove(declared.group(1));
        }
        assertThat(uses).containsKeys("io.tally.core", "io.tally.writer", "io.tally.stream.engine", "io.tally.local");
        for (String start : uses.keySet()) {
            assertThat(cycleThrough(start, uses)).as("a package cycle through %s", start).isEmpty();
        }
    }

    @Test
    void mainSources_noFileOverTheLimit() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (Path file : mainSources()) {
            long lines = Files.readAllLines(file).size();
            if (lines > MAX_LINES) {
                tooLong.add(REPOSITORY.relativize(file) + " (" + lines + " lines)");
            }
        }
        assertThat(tooLong).as("main source files over %d lines", MAX_LINES).isEmpty();
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(REPOSITORY)) {
            List<Path> sources = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> file.toString().contains("/src/main/java/"))
                    .filter(file -> !file.toString().contains("/target/"))
                    // The archetype's templates of a generated project's sources: not Java until generated.
                    .filter(file -> !file.toString().contains("/archetype-resources/"))
                    .sorted().toList();
            assertThat(sources).as("main sources under %s", REPOSITORY.toAbsolutePath()).hasSizeGreaterThan(100);
            return sources;
        }
    }

    /** A path of packages from {@code start} back to itself, or empty: a breadth-first walk of what it uses. */
    private static List<String> cycleThrough(String start, Map<String, Set<String>> uses) {
        Map<String, String> reachedFrom = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>(uses.getOrDefault(start, Set.of()));
        queue.forEach(next -> reachedFrom.put(next, start));
        while (!queue.isEmpty()) {
            String current = queue.poll();
            if (current.equals(start)) {
                List<String> cycle = new ArrayList<>(List.of(start));
                for (String at = reachedFrom.get(start); !at.equals(start); at = reachedFrom.get(at)) {
                    cycle.add(0, at);
                }
                cycle.add(0, start);
                return cycle;
            }
            for (String next : uses.getOrDefault(current, Set.of())) {
                if (!reachedFrom.containsKey(next)) {
                    reachedFrom.put(next, current);
                    queue.add(next);
                }
            }
        }
        return List.of();
    }
}
