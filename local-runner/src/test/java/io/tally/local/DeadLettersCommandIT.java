package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import io.tally.core.DeadLetterItem;
import io.tally.local.events.MatchedEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code tally-local dead-letters list|show|delete} against a running local pipeline whose stream processor filed a
 * real dead letter (a base item of a type no derivation knows), and the letters' gauge in {@code GET /metrics}.
 */
class DeadLettersCommandIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LocalRunner runner;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void startAndPoison() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        dynamo = DynamoDbClient.builder().endpointOverride(runner.dynamoDbEndpoint()).region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .build();
        // An entity type no derivation knows: poison, filed as a dead letter by the stream processor.
        dynamo.putItem(r -> r.tableName(runner.tableName()).item(Map.of(
                "pk", AttributeValue.fromS("MARTIAN#m1"), "sk", AttributeValue.fromS("#METADATA#"),
                "entityType", AttributeValue.fromS("Martian"))));
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
    }

    @AfterAll
    static void stop() {
        if (dynamo != null) {
            dynamo.close();
        }
        if (runner != null) {
            runner.close();
        }
    }

    private static CommandRun run(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = runner.dynamoDbEndpoint().toString();
        return CommandRun.of(all);
    }

    private static String onlyLetterId() {
        CommandRun list = run("dead-letters", "list");
        assertThat(list.status()).as(list.err()).isZero();
        assertThat(list.out().lines()).hasSize(1);
        return list.out().lines().findFirst().orElseThrow().split("  ")[0];
    }

    @Test
    void listShowDelete_ofTheFiledLetter() throws Exception {
        CommandRun list = run("dead-letters", "list");
        assertThat(list.status()).isZero();
        assertThat(list.out()).contains("INSERT").contains("MARTIAN#m1 / #METADATA#").contains("Martian");
        assertThat(list.err()).contains("1 dead letter(s) in table tally");
        String id = onlyLetterId();
        assertThat(id).matches("\\d{4}-\\d{2}-\\d{2}/\\d+#.+");
        // Filed in one of its day's 16 partitions, the one its sort key gives; the id leaves the slot out.
        String day = id.substring(0, id.indexOf('/'));
        String sortKey = id.substring(id.indexOf('/') + 1);
        assertThat(dynamo.getItem(r -> r.tableName(runner.tableName())
                .key(DeadLetterItem.key(day, sortKey).toAttributeMap())).hasItem()).isTrue();

        CommandRun show = run("dead-letters", "show", id);
        assertThat(show.status()).as(show.err()).isZero();
        JsonNode letter = JSON.readTree(show.out());
        assertThat(letter.get("id").asText()).isEqualTo(id);
        assertThat(letter.at("/item/entityType/S").asText()).isEqualTo("DeadLetter");
        assertThat(letter.at("/item/newImage/M/entityType/S").asText()).isEqualTo("Martian");
        assertThat(letter.at("/item/reason/S").asText()).isNotBlank();
        // Filed with its TTL: 30 days after it was recorded.
        Instant recorded = Instant.parse(letter.at("/item/recordedAt/S").asText());
        assertThat(letter.at("/item/ttl/N").asLong()).isEqualTo(recorded.plus(Duration.ofDays(30)).getEpochSecond());

        assertThat(gauge()).isEqualTo(1);

        CommandRun deleted = run("dead-letters", "delete", id);
        assertThat(deleted.status()).as(deleted.err()).isZero();
        assertThat(deleted.out()).contains("deleted " + id);
        assertThat(run("dead-letters", "list").out()).isEmpty();
        assertThat(run("dead-letters", "show", id).status()).isEqualTo(3);
        CommandRun again = run("dead-letters", "delete", id);
        assertThat(again.status()).isEqualTo(3);
        assertThat(again.err()).contains("no dead letter " + id);

        // The gauge is recounted at most every 30 seconds: wait for the next count.
        while (gauge() != 0) {
            Thread.sleep(200);
        }
    }

    @Test
    void listAll_findsLettersOlderThanTheirRetention_thatDynamoDbLocalKeeps() {
        dynamo.putItem(r -> r.tableName(runner.tableName()).item(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#2020-01-01"), "sk", AttributeValue.fromS("00000000000000000001#old"),
                "entityType", AttributeValue.fromS("DeadLetter"), "reason", AttributeValue.fromS("an old one"))));
        try {
            assertThat(run("dead-letters", "list").out()).doesNotContain("2020-01-01/");
            CommandRun all = run("dead-letters", "list", "--all");
            assertThat(all.status()).isZero();
            assertThat(all.out()).contains("2020-01-01/00000000000000000001#old").contains("an old one");
        } finally {
            assertThat(run("dead-letters", "delete", "2020-01-01/00000000000000000001#old").status()).isZero();
        }
    }

    @Test
    void letterFiledBeforeLettersWereSpread_inItsDaysPartitionWithoutASlot_isListedShownAndDeleted() throws Exception {
        String day = DeadLetterItem.day(Instant.now());
        dynamo.putItem(r -> r.tableName(runner.tableName()).item(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#" + day), "sk", AttributeValue.fromS("00000000000000000002#before"),
                "entityType", AttributeValue.fromS("DeadLetter"), "reason", AttributeValue.fromS("filed before"))));
        String id = day + "/00000000000000000002#before";
        try {
            CommandRun list = run("dead-letters", "list", "--days", "2");
            assertThat(list.status()).as(list.err()).isZero();
            assertThat(list.out()).contains(id + "  ").contains("filed before");

            CommandRun show = run("dead-letters", "show", id);
            assertThat(show.status()).as(show.err()).isZero();
            assertThat(JSON.readTree(show.out()).get("id").asText()).isEqualTo(id);
        } finally {
            assertThat(run("dead-letters", "delete", id).status()).isZero();
        }
        assertThat(run("dead-letters", "show", id).status()).isEqualTo(3);
    }

    @Test
    void deleteNeverRemovesAnItemThatIsNoDeadLetter() {
        // Another derived type, which the stream processor skips (a base type would be poison: a letter of its own).
        dynamo.putItem(r -> r.tableName(runner.tableName()).item(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#2020-02-02"), "sk", AttributeValue.fromS("x"),
                "entityType", AttributeValue.fromS("ShardCursor"))));

        CommandRun refused = run("dead-letters", "delete", "2020-02-02/x");

        assertThat(refused.status()).isEqualTo(3);
        assertThat(dynamo.getItem(r -> r.tableName(runner.tableName()).key(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#2020-02-02"), "sk", AttributeValue.fromS("x")))).hasItem()).isTrue();
    }

    @Test
    void republishEvents_sendsEachUnpublishedEventOnceWithItsEventId_andASecondRunNothing() {
        // Two letters as the stream processor files them when the bus refuses everything (an AccessDeniedException),
        // and one filed before letters kept the source: it gets --source's.
        String day = "2020-03-03";
        putEventLetter(day, "00000000000000000010#ev-10#events", "[" + eventJson("ev-10:PostCreated:p1",
                "\"source\":\"io.tally\",", "PostCreated") + "," + eventJson("ev-10:UserStatsChanged:u1",
                "\"source\":\"io.tally\",", "UserStatsChanged") + "]");
        putEventLetter(day, "00000000000000000011#ev-11#events",
                "[" + eventJson("ev-11:PostCreated:p2", "", "PostCreated") + "]");
        String first = day + "/00000000000000000010#ev-10#events";
        String second = day + "/00000000000000000011#ev-11#events";
        try {
            CommandRun republish = run("dead-letters", "republish-events", first, second, "--events-endpoint",
                    runner.eventsEndpoint().toString());

            assertThat(republish.status()).as(republish.err()).isZero();
            assertThat(republish.out()).contains(first + "  republished 2, before 0, not published 0")
                    .contains(second + "  republished 1, before 0, not published 0");
            assertThat(republishedOnTheBus()).containsExactlyInAnyOrder("ev-10:PostCreated:p1 io.tally PostCreated",
                    "ev-10:UserStatsChanged:u1 io.tally UserStatsChanged", "ev-11:PostCreated:p2 io.tally PostCreated");
            // Each event is marked in its letter.
            assertThat(dynamo.getItem(r -> r.tableName(runner.tableName()).key(Map.of(
                    "pk", AttributeValue.fromS("DEADLETTER#" + day),
                    "sk", AttributeValue.fromS("00000000000000000010#ev-10#events")))).item().get("republished").ss())
                    .containsExactlyInAnyOrder("ev-10:PostCreated:p1", "ev-10:UserStatsChanged:u1");

            CommandRun again = run("dead-letters", "republish-events", first, second, "--events-endpoint",
                    runner.eventsEndpoint().toString());

            assertThat(again.status()).as(again.err()).isZero();
            assertThat(again.out()).contains(first + "  republished 0, before 2").contains(second + "  republished 0, before 1");
            assertThat(republishedOnTheBus()).hasSize(3);
        } finally {
            assertThat(run("dead-letters", "delete", first, second).status()).isZero();
        }
    }

    private static void putEventLetter(String day, String sortKey, String events) {
        dynamo.putItem(r -> r.tableName(runner.tableName()).item(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#" + day), "sk", AttributeValue.fromS(sortKey),
                "entityType", AttributeValue.fromS("DeadLetter"), "reason", AttributeValue.fromS("refused for good"),
                "shardId", AttributeValue.fromS("shardId-1"), "events", AttributeValue.fromS(events))));
    }

    private static String eventJson(String id, String source, String detailType) {
        return "{\"id\":\"" + id + "\"," + source + "\"detailType\":\"" + detailType + "\",\"detail\":{"
                + "\"eventId\":\"" + id + "\",\"n\":1},\"errorCode\":\"AccessDeniedException\"}";
    }

    /** The republished events the local bus accepted: detail.eventId, source and detail type of each. */
    private static List<String> republishedOnTheBus() {
        return runner.eventBus().recentEvents(1000).stream().map(MatchedEvent::event)
                .filter(event -> event.at("/detail/eventId").asText().startsWith("ev-1"))
                .map(event -> event.at("/detail/eventId").asText() + " " + event.path("source").asText() + " "
                        + event.path("detail-type").asText())
                .toList();
    }

    @Test
    void malformedId_isAUsageError() {
        CommandRun show = run("dead-letters", "show", "no-slash");

        assertThat(show.status()).isEqualTo(2);
        assertThat(show.err()).contains("<day>/<sort key>");
    }

    private static double gauge() {
        String metrics = runner.metricsText();
        return metrics.lines().filter(line -> line.startsWith("tally_deadletters "))
                .map(line -> Double.parseDouble(line.substring("tally_deadletters ".length()).trim()))
                .findFirst().orElseThrow(() -> new AssertionError("no tally_deadletters in " + metrics));
    }
}
