package io.tally.local.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rule files of {@code infra/events/rules}, and how rule files are read and checked. */
class RulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path RULES = Path.of("..", "infra", "events", "rules");
    private static final List<String> ALL = List.of("all-tally-events");
    /** Every event but UserStatsChanged also goes to the activity feed (the subscriber example). */
    private static final List<String> ACTIVITY = List.of("activity-feed", "all-tally-events");
    private static final List<String> POSTS = List.of("activity-feed", "all-tally-events", "post-activity");
    private static final List<String> COMPLETED = List.of("activity-feed", "all-tally-events", "item-completed");
    private static final List<String> CORRECT = List.of("activity-feed", "all-tally-events", "correct-completions",
            "item-completed");

    private static final EventRules REPOSITORY_RULES = EventRules.fromDirectory(RULES);

    /** An envelope as the bus builds it. */
    private static ObjectNode event(String source, String detailType, String detail) {
        try {
            ObjectNode event = JSON.createObjectNode();
            event.put("version", "0");
            event.put("id", "6a7e8feb-b491-4cf7-a9f1-bf3703467718");
            event.put("detail-type", detailType);
            event.put("source", source);
            event.put("account", "000000000000");
            event.put("time", "2024-05-01T10:15:30Z");
            event.put("region", "us-east-1");
            event.putArray("resources");
            event.set("detail", JSON.readTree(detail));
            return event;
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("PostCreated", "{\"eventId\":\"a\",\"postId\":\"p1\"}", POSTS),
                Arguments.of("PostStatusChanged", "{\"eventId\":\"a\",\"status\":\"deleted\"}", POSTS),
                Arguments.of("CommentAdded", "{\"eventId\":\"a\",\"commentId\":\"c1\"}", POSTS),
                Arguments.of("CommentDeleted", "{\"eventId\":\"a\",\"commentId\":\"c1\"}", POSTS),
                Arguments.of("ItemCompleted", "{\"eventId\":\"a\",\"correct\":true}", CORRECT),
                Arguments.of("ItemCompleted", "{\"eventId\":\"a\",\"correct\":false}", COMPLETED),
                Arguments.of("ItemCompleted", "{\"eventId\":\"a\"}", COMPLETED),
                // Patterns compare JSON types: the string "true" is not the boolean.
                Arguments.of("ItemCompleted", "{\"eventId\":\"a\",\"correct\":\"true\"}", COMPLETED),
                Arguments.of("SongAdded", "{\"eventId\":\"a\",\"songId\":\"s1\"}", ACTIVITY),
                Arguments.of("TagDeleted", "{\"eventId\":\"a\",\"tagId\":\"t1\"}", ACTIVITY),
                Arguments.of("FavouriteCollected", "{\"eventId\":\"a\",\"favouriteId\":\"f1\"}", ACTIVITY),
                Arguments.of("FavouriteUntagged", "{\"eventId\":\"a\",\"tagId\":\"t1\"}", ACTIVITY),
                Arguments.of("UserStatsChanged", "{\"eventId\":\"a\",\"userId\":\"u1\"}", ALL),
                Arguments.of("SomethingNew", "{\"eventId\":\"a\"}", ACTIVITY));
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("samples")
    void sampleEvent_fromTally_matchesExactlyTheExpectedRules(String detailType, String detail, List<String> rules) {
        assertThat(REPOSITORY_RULES.matching(event("io.tally", detailType, detail))).isEqualTo(rules);
    }

    @Test
    void sampleEvent_fromAnotherSource_matchesNoRule() {
        assertThat(REPOSITORY_RULES.matching(event("io.elsewhere", "PostCreated", "{\"correct\":true}"))).isEmpty();
        assertThat(REPOSITORY_RULES.matching(event("io.tally.test", "ItemCompleted", "{\"correct\":true}"))).isEmpty();
    }

    @Test
    void everyRuleFile_parsesAndCompilesInEventRuler() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(RULES, "*.json")) {
            stream.forEach(files::add);
        }

        assertThat(files).isNotEmpty();
        for (Path file : files) {
            EventRule rule = EventRules.parse(file.toString(), Files.readAllBytes(file));
            EventRules compiled = EventRules.of(file.toString(), List.of(rule));
            assertThat(compiled.names()).containsExactly(rule.name());
            assertThat(rule.description()).as("%s has a description", file).isNotBlank();
            assertThat(rule.eventPattern().get("source")).as("%s is about Tally's events", file)
                    .containsExactly(JSON.getNodeFactory().textNode("io.tally"));
            // A rule's events go to <name>.jsonl; the same name on the file lets a reader find one from the other.
            assertThat(file.getFileName().toString()).isEqualTo(rule.name() + ".json");
        }
        assertThat(REPOSITORY_RULES.names()).containsExactly(
                "activity-feed", "all-tally-events", "correct-completions", "item-completed", "post-activity");
    }

    @Test
    void classpathCopy_holdsTheSameRulesAsTheRepository() {
        EventRules packaged = EventRules.fromClasspath();

        assertThat(packaged.origin()).isEqualTo("classpath:/rules");
        assertThat(packaged.rules()).extracting(EventRule::name, EventRule::eventPattern)
                .containsExactlyElementsOf(REPOSITORY_RULES.rules().stream()
                        .map(rule -> Tuple.tuple(rule.name(), rule.eventPattern()))
                        .toList());
    }

    @Test
    void patternEventRulerRejects_failsNamingTheFile(@TempDir Path dir) throws IOException {
        write(dir, "good.json", "{\"Name\":\"good\",\"EventPattern\":{\"source\":[\"io.tally\"]}}");
        // A bare string where EventBridge wants a list of values.
        write(dir, "broken.json", "{\"Name\":\"broken\",\"EventPattern\":{\"source\":\"io.tally\"}}");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOfSatisfying(InvalidRuleException.class,
                        e -> assertThat(e.file()).endsWith("broken.json"))
                .hasMessageContaining("broken.json")
                .hasMessageContaining("EventPattern is not valid")
                .hasMessageContaining("must be an object or an array");
    }

    @Test
    void unknownMatchType_failsNamingTheFile(@TempDir Path dir) throws IOException {
        write(dir, "typo.json", "{\"Name\":\"typo\",\"EventPattern\":{\"source\":[{\"prefx\":\"io.\"}]}}");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageContaining("typo.json")
                .hasMessageContaining("prefx");
    }

    @Test
    void fileThatIsNotJson_failsNamingTheFile(@TempDir Path dir) throws IOException {
        write(dir, "half.json", "{\"Name\":\"half\",\"EventPattern\":{");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageStartingWith("rule file " + dir.toAbsolutePath().normalize() + "/half.json: not valid JSON");
    }

    @Test
    void misspelledProperty_failsInsteadOfBeingIgnored(@TempDir Path dir) throws IOException {
        write(dir, "r.json", "{\"Name\":\"r\",\"EventPatern\":{\"source\":[\"io.tally\"]}}");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageContaining("r.json")
                .hasMessageContaining("unknown properties [EventPatern]");
    }

    @Test
    void duplicateKeyInAPattern_fails(@TempDir Path dir) throws IOException {
        write(dir, "twice.json", "{\"Name\":\"twice\",\"EventPattern\":{\"source\":[\"a\"],\"source\":[\"b\"]}}");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageContaining("twice.json")
                .hasMessageContaining("Duplicate field 'source'");
    }

    @Test
    void ruleNameThatIsNoEventBridgeName_fails(@TempDir Path dir) throws IOException {
        write(dir, "escape.json", "{\"Name\":\"../escape\",\"EventPattern\":{\"source\":[\"io.tally\"]}}");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageContaining("escape.json")
                .hasMessageContaining("Name must be an EventBridge rule name");
    }

    @Test
    void twoFilesWithOneRuleName_fail(@TempDir Path dir) throws IOException {
        write(dir, "a.json", "{\"Name\":\"same\",\"EventPattern\":{\"source\":[\"io.tally\"]}}");
        write(dir, "b.json", "{\"Name\":\"same\",\"EventPattern\":{\"detail-type\":[\"X\"]}}");

        assertThatThrownBy(() -> EventRules.fromDirectory(dir))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageContaining("rule name 'same' is taken by")
                .hasMessageContaining("a.json")
                .hasMessageContaining("b.json");
    }

    @Test
    void filesOtherThanJson_areLeftAlone(@TempDir Path dir) throws IOException {
        write(dir, "README.md", "# rules");
        write(dir, "only.json", "{\"Name\":\"only\",\"Description\":\"d\",\"EventPattern\":{\"source\":[\"io.tally\"]}}");

        EventRules rules = EventRules.fromDirectory(dir);

        assertThat(rules.names()).containsExactly("only");
        assertThat(rules.rules().get(0).description()).isEqualTo("d");
        assertThat(rules.origin()).isEqualTo(dir.toAbsolutePath().normalize().toString());
    }

    @Test
    void missingDirectory_failsWithItsPath(@TempDir Path dir) {
        Path missing = dir.resolve("nowhere");

        assertThatThrownBy(() -> EventRules.fromDirectory(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.toString());
    }

    private static void write(Path dir, String name, String content) throws IOException {
        Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }
}
