package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.events.EventType;
import io.tally.core.users.UserStatsEvents;
import io.tally.local.auth.LocalAuth;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

/**
 * The public feed shows public data only (DOMAIN.md, access control: "an anonymous caller sees only events about
 * public data; an admin sees all"). {@code tally-local --auth} gets one event of every detail type docs/events.md
 * documents, published to its event bus as the stream processor publishes them, every text field a marker of its own;
 * the repository's rule hands them to the subscriber, and {@code GET /activity} is read by each kind of caller.
 */
class PublicActivityFeedIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path EVENTS_DOC = Path.of("..", "docs", "events.md");
    /** Not forwarded to the feed by the rule {@code activity-feed} (one per write that moves a counter). */
    private static final String NOT_FORWARDED = UserStatsEvents.USER_STATS_CHANGED;

    private static LocalRunner runner;
    private static LocalAuth auth;
    /** Every documented detail type with the detail published. */
    private static final Map<String, ObjectNode> PUBLISHED = new LinkedHashMap<>();
    private static final Map<String, EventType> DECLARED = new LinkedHashMap<>();

    @BeforeAll
    static void publishOneEventOfEveryType() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral().withAuth(true));
        auth = runner.auth().orElseThrow();
        runner.domains().domains().forEach(domain -> domain.events().forEach(type ->
                DECLARED.put(type.detailType(), type)));
        for (String detailType : documentedDetailTypes()) {
            PUBLISHED.put(detailType, detail(detailType));
        }
        try (EventBridgeClient events = EventBridgeClient.builder()
                .endpointOverride(runner.eventsEndpoint())
                .region(Region.US_EAST_1)
                // Under --auth the bus takes only calls signed with the run's credentials.
                .credentialsProvider(StaticCredentialsProvider.create(runner.eventBus().callers().orElseThrow()))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            List<PutEventsRequestEntry> entries = new ArrayList<>();
            PUBLISHED.forEach((detailType, detail) -> entries.add(PutEventsRequestEntry.builder().source("io.tally")
                    .detailType(detailType).detail(detail.toString()).eventBusName(runner.eventBusName()).build()));
            for (int from = 0; from < entries.size(); from += 10) {
                List<PutEventsRequestEntry> call = entries.subList(from, Math.min(entries.size(), from + 10));
                assertThat(events.putEvents(request -> request.entries(call)).failedEntryCount()).isZero();
            }
        }
        Set<String> forwarded = new TreeSet<>(PUBLISHED.keySet());
        forwarded.remove(NOT_FORWARDED);
        String admin = auth.mint("boss", true, Duration.ofMinutes(10), Instant.now());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!detailTypes(feed(admin)).equals(forwarded)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the feed never held every forwarded type: " + detailTypes(feed(admin)));
            }
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    /** The detail types docs/events.md documents, one heading each ({@code ### `A`, `B`}). */
    static List<String> documentedDetailTypes() throws IOException {
        String doc = Files.readString(EVENTS_DOC);
        String section = doc.substring(doc.indexOf("## Detail types"));
        section = section.substring(0, section.indexOf("\n## ", 3));
        List<String> types = new ArrayList<>();
        Matcher heading = Pattern.compile("(?m)^### (.+)$").matcher(section);
        while (heading.find()) {
            Matcher name = Pattern.compile("`([A-Za-z]+)`").matcher(heading.group(1));
            while (name.find()) {
                types.add(name.group(1));
            }
        }
        return types;
    }

    /** A detail of the type's record, every text a marker naming the type and the field. */
    private static ObjectNode detail(String detailType) {
        ObjectNode detail = JSON.createObjectNode();
        detail.put("eventId", "rec-" + detailType + ":" + detailType + ":subject");
        EventType type = DECLARED.get(detailType);
        if (type == null) {
            assertThat(detailType).as("documented but declared by no domain").isEqualTo(NOT_FORWARDED);
            detail.put("userId", marker(detailType, "userId"));
            detail.putObject("changes").put("posts", 1);
            return detail;
        }
        for (RecordComponent component : type.detail().getRecordComponents()) {
            String field = component.getName();
            Class<?> kind = component.getType();
            if (field.equals("eventId")) {
                continue;
            }
            if (kind == String.class) {
                detail.put(field, marker(detailType, field));
            } else if (kind == boolean.class || kind == Boolean.class) {
                detail.put(field, true);
            } else if (kind == Instant.class) {
                detail.put(field, "2026-11-26T10:00:00.000Z");
            } else if (kind.isEnum()) {
                detail.set(field, JSON.valueToTree(io.tally.core.http.Json.MAPPER.valueToTree(
                        kind.getEnumConstants()[0])));
            } else if (Number.class.isAssignableFrom(kind) || kind.isPrimitive()) {
                detail.put(field, 1);
            } else {
                detail.putObject(field);
            }
        }
        return detail;
    }

    private static String marker(String detailType, String field) {
        return "marker-" + detailType + "-" + field;
    }

    private static JsonNode feed(String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(runner.baseUri() + "/activity?limit=100"))
                .timeout(Duration.ofSeconds(20)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return JSON.readTree(response.body()).path("items");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> detailTypes(JsonNode items) {
        Set<String> types = new TreeSet<>();
        items.forEach(item -> types.add(item.path("detailType").asText()));
        return types;
    }

    @Test
    void everyDocumentedDetailType_isDeclaredByADomain_butTheKernelsStatsEvent() {
        Set<String> declared = new HashSet<>(DECLARED.keySet());
        declared.add(NOT_FORWARDED);
        assertThat(PUBLISHED.keySet()).containsExactlyInAnyOrderElementsOf(declared);
    }

    @Test
    void anAdmin_readsEveryEventTheRuleForwards_whole() {
        JsonNode items = feed(auth.mint("boss", true, Duration.ofMinutes(10), Instant.now()));
        assertThat(items).hasSize(PUBLISHED.size() - 1);
        items.forEach(item -> assertThat(item.path("detail"))
                .as(item.path("detailType").asText()).isEqualTo(PUBLISHED.get(item.path("detailType").asText())));
    }

    @Test
    void anyoneElse_readsOnlyTheEventsAboutPublicData_withOnlyTheirPublicFields() {
        Set<String> publicTypes = new TreeSet<>();
        DECLARED.values().stream().filter(EventType::publicData).forEach(type -> publicTypes.add(type.detailType()));
        assertThat(publicTypes).containsExactlyInAnyOrder("PostCreated", "PostStatusChanged", "CommentAdded",
                "CommentDeleted", "SongAdded");
        Instant now = Instant.now();
        Map<String, String> readers = new LinkedHashMap<>();
        readers.put("no token", null);
        readers.put("a user's token", auth.mint("u1", false, Duration.ofMinutes(10), now));
        readers.put("an expired admin token", auth.sign(new com.nimbusds.jwt.JWTClaimsSet.Builder()
                .issuer(LocalAuth.ISSUER).audience(LocalAuth.AUDIENCE).subject("boss")
                .issueTime(java.util.Date.from(now.minusSeconds(3600)))
                .expirationTime(java.util.Date.from(now.minusSeconds(5)))
                .claim(LocalAuth.GROUPS_CLAIM, List.of(LocalAuth.ADMIN_GROUP)).build()));
        readers.put("an admin token of another key", LocalAuth.inMemory().mint("boss", true, Duration.ofMinutes(10),
                now));
        readers.forEach((who, token) -> {
            JsonNode items = feed(token);
            assertThat(detailTypes(items)).as(who).isEqualTo(publicTypes);
            for (JsonNode item : items) {
                EventType type = DECLARED.get(item.path("detailType").asText());
                List<String> fields = new ArrayList<>();
                item.path("detail").fieldNames().forEachRemaining(fields::add);
                assertThat(fields).as("%s: %s", who, type.detailType()).containsExactlyElementsOf(type.publicFields());
            }
            String text = items.toString();
            PUBLISHED.forEach((detailType, detail) -> {
                EventType type = DECLARED.get(detailType);
                detail.fields().forEachRemaining(field -> {
                    boolean shown = type != null && type.publicFields().contains(field.getKey());
                    if (!shown && field.getValue().isTextual() && field.getValue().asText().startsWith("marker-")) {
                        assertThat(text).as("%s sees %s.%s", who, detailType, field.getKey())
                                .doesNotContain(field.getValue().asText());
                    }
                });
            });
        });
    }
}
