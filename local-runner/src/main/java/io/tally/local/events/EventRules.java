package io.tally.local.events;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import software.amazon.event.ruler.Machine;

/**
 * The bus's rules, loaded from rule files and compiled into one AWS Event Ruler {@link Machine}, which tells for
 * an event every rule whose pattern it matches.
 *
 * <p>A rule file is {@code {"Name": "...", "Description": "...", "EventPattern": {...}}}: the properties an
 * {@code AWS::Events::Rule} has in the deployment, so that the same files can be declared there. Anything the
 * local bus would have to guess about (an unknown property, a duplicate key, a pattern Event Ruler rejects)
 * fails the load with the file's name rather than quietly matching something else than AWS would.
 */
public final class EventRules {
    /** Where the runnable jar carries its copy of {@code infra/events/rules}. */
    public static final String CLASSPATH_DIRECTORY = "rules";

    /** EventBridge's rule names: and they become file names here, so nothing else may pass. */
    private static final Pattern RULE_NAME = Pattern.compile("[.\\-_A-Za-z0-9]{1,64}");
    /** EventBridge's limit on a rule's description. */
    private static final int MAX_DESCRIPTION = 512;
    private static final Set<String> PROPERTIES = Set.of("Name", "Description", "EventPattern");
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String origin;
    private final List<EventRule> rules;
    private final Machine machine;

    private EventRules(String origin, List<EventRule> rules, Machine machine) {
        this.origin = origin;
        this.rules = rules;
        this.machine = machine;
    }

    /**
     * Loads every {@code *.json} file of {@code directory} (not its subdirectories); other files are left alone,
     * so the directory can hold a README.
     *
     * @throws InvalidRuleException if a file is not a valid rule, or two files name the same rule
     * @throws IllegalArgumentException if {@code directory} is not a readable directory
     */
    public static EventRules fromDirectory(Path directory) {
        Path dir = directory.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("rules directory " + dir + " does not exist or is not a directory");
        }
        return of(dir.toString(), read(dir, dir.toString()));
    }

    /**
     * Loads the rule files packaged under {@code /rules/} on the class path: the runnable jar's copy of
     * {@code infra/events/rules}, or {@code target/classes/rules} when run from a build.
     *
     * @throws InvalidRuleException if a file is not a valid rule
     * @throws IllegalStateException if no rules are packaged
     */
    public static EventRules fromClasspath() {
        URL url = EventRules.class.getClassLoader().getResource(CLASSPATH_DIRECTORY);
        if (url == null) {
            throw new IllegalStateException("no rules packaged under /" + CLASSPATH_DIRECTORY + "/ on the class path");
        }
        String origin = "classpath:/" + CLASSPATH_DIRECTORY;
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("unreadable class path location " + url, e);
        }
        if ("file".equals(uri.getScheme())) {
            return of(origin, read(Path.of(uri), origin));
        }
        if (!"jar".equals(uri.getScheme())) {
            throw new IllegalStateException("cannot list rules at " + url + "; pass a rules directory instead");
        }
        // A class loader can find a file but not list a directory; the jar, opened as a file system, can.
        FileSystem opened = null;
        try {
            FileSystem jar;
            try {
                jar = opened = FileSystems.newFileSystem(uri, Map.of());
            } catch (FileSystemAlreadyExistsException e) {
                jar = FileSystems.getFileSystem(uri);
            }
            return of(origin, read(jar.getPath("/" + CLASSPATH_DIRECTORY), origin));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the rules packaged in " + url + ": " + e.getMessage(), e);
        } finally {
            closeQuietly(opened);
        }
    }

    /**
     * Compiles {@code rules} (from wherever they came) into one matcher.
     *
     * @throws InvalidRuleException if a pattern does not compile, or two rules share a name
     */
    public static EventRules of(String origin, List<EventRule> rules) {
        List<EventRule> sorted = new ArrayList<>(rules);
        sorted.sort(Comparator.comparing(EventRule::name));
        Map<String, EventRule> byName = new HashMap<>();
        Machine machine = Machine.builder().build();
        for (EventRule rule : sorted) {
            EventRule other = byName.putIfAbsent(rule.name(), rule);
            if (other != null) {
                throw new InvalidRuleException(rule.file(), "rule name '" + rule.name() + "' is taken by " + other.file());
            }
            try {
                machine.addRule(rule.name(), STRICT.writeValueAsString(rule.eventPattern()));
            } catch (JsonProcessingException e) {
                // Event Ruler reports pattern errors as parse errors; the location it adds is in its own copy of the
                // pattern, not in the file, so only the reason helps.
                throw new InvalidRuleException(rule.file(), "EventPattern is not valid: " + e.getOriginalMessage(), e);
            } catch (IOException | RuntimeException e) {
                throw new InvalidRuleException(rule.file(), "EventPattern is not valid: " + e.getMessage(), e);
            }
        }
        return new EventRules(origin, List.copyOf(sorted), machine);
    }

    /**
     * Reads one rule file's content.
     *
     * @param file    the file's name, for messages
     * @param content the file's bytes
     * @throws InvalidRuleException if it is not {@code {"Name", "Description"?, "EventPattern"}} as EventBridge
     *                              allows them; the pattern itself is checked when compiled, by {@link #of}
     */
    public static EventRule parse(String file, byte[] content) {
        JsonNode root;
        try {
            root = STRICT.readTree(content);
        } catch (JsonProcessingException e) {
            throw new InvalidRuleException(file, "not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new InvalidRuleException(file, "unreadable: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidRuleException(file, "expected an object {\"Name\", \"Description\", \"EventPattern\"}");
        }
        Set<String> unknown = new TreeSet<>();
        root.fieldNames().forEachRemaining(unknown::add);
        unknown.removeAll(PROPERTIES);
        if (!unknown.isEmpty()) {
            throw new InvalidRuleException(file, "unknown properties " + unknown + "; a rule file has "
                    + new TreeSet<>(PROPERTIES));
        }
        JsonNode name = root.get("Name");
        if (name == null || !name.isTextual() || !RULE_NAME.matcher(name.asText()).matches()) {
            throw new InvalidRuleException(file, "Name must be an EventBridge rule name: 1 to 64 letters, digits, "
                    + "'.', '-' or '_'");
        }
        JsonNode description = root.get("Description");
        if (description != null && (!description.isTextual() || description.asText().length() > MAX_DESCRIPTION)) {
            throw new InvalidRuleException(file, "Description must be a string of at most " + MAX_DESCRIPTION
                    + " characters");
        }
        JsonNode pattern = root.get("EventPattern");
        if (pattern == null || !pattern.isObject()) {
            throw new InvalidRuleException(file, "EventPattern must be an object in EventBridge's pattern syntax");
        }
        return new EventRule(name.asText(), description == null ? "" : description.asText(),
                (ObjectNode) pattern, file);
    }

    /** Where the rules came from: a directory, or {@code classpath:/rules}. */
    public String origin() {
        return origin;
    }

    /** The rules, by name. */
    public List<EventRule> rules() {
        return rules;
    }

    /** The rules' names, sorted. */
    public List<String> names() {
        return rules.stream().map(EventRule::name).toList();
    }

    /**
     * The names of the rules {@code event} matches, sorted; empty when it matches none.
     *
     * @param event an EventBridge envelope ({@code source}, {@code detail-type}, {@code detail}, ...)
     */
    public List<String> matching(JsonNode event) {
        List<String> matched = new ArrayList<>(machine.rulesForJSONEvent(event));
        Collections.sort(matched);
        return List.copyOf(matched);
    }

    private static List<EventRule> read(Path dir, String origin) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.json")) {
            Iterator<Path> entries = stream.iterator();
            while (entries.hasNext()) {
                Path file = entries.next();
                if (Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot list the rules in " + origin + ": " + e.getMessage(), e);
        }
        files.sort(Comparator.comparing(file -> file.getFileName().toString()));
        List<EventRule> rules = new ArrayList<>();
        for (Path file : files) {
            String name = origin + "/" + file.getFileName();
            byte[] content;
            try {
                content = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new InvalidRuleException(name, "unreadable: " + e.getMessage(), e);
            }
            rules.add(parse(name, content));
        }
        return rules;
    }

    private static void closeQuietly(FileSystem fileSystem) {
        if (fileSystem == null) {
            return;
        }
        try {
            fileSystem.close();
        } catch (IOException e) {
            // Only the jar's file system, opened for reading: nothing was written that could be lost.
        }
    }
}
