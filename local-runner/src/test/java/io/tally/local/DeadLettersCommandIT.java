package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = runner.dynamoDbEndpoint().toString();
        int status = LocalRunnerCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(all);
        return new Run(status, out.toString(), err.toString());
    }

    private static String onlyLetterId() {
        Run list = run("dead-letters", "list");
        assertThat(list.status()).as(list.err()).isZero();
        assertThat(list.out().lines()).hasSize(1);
        return list.out().lines().findFirst().orElseThrow().split("  ")[0];
    }

    @Test
    void listShowDelete_ofTheFiledLetter() throws Exception {
        Run list = run("dead-letters", "list");
        assertThat(list.status()).isZero();
        assertThat(list.out()).contains("INSERT").contains("MARTIAN#m1 / #METADATA#").contains("Martian");
        assertThat(list.err()).contains("1 dead letter(s) in table tally");
        String id = onlyLetterId();
        assertThat(id).matches("\\d{4}-\\d{2}-\\d{2}/\\d+#.+");

        Run show = run("dead-letters", "show", id);
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

        Run deleted = run("dead-letters", "delete", id);
        assertThat(deleted.status()).as(deleted.err()).isZero();
        assertThat(deleted.out()).contains("deleted " + id);
        assertThat(run("dead-letters", "list").out()).isEmpty();
        assertThat(run("dead-letters", "show", id).status()).isEqualTo(3);
        Run again = run("dead-letters", "delete", id);
        assertThat(again.status()).isEqualTo(3);
        assertThat(again.err()).contains("no dead letter " + id);

        // The gauge is recounted at most every few seconds: wait for the next count.
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
            Run all = run("dead-letters", "list", "--all");
            assertThat(all.status()).isZero();
            assertThat(all.out()).contains("2020-01-01/00000000000000000001#old").contains("an old one");
        } finally {
            assertThat(run("dead-letters", "delete", "2020-01-01/00000000000000000001#old").status()).isZero();
        }
    }

    @Test
    void deleteNeverRemovesAnItemThatIsNoDeadLetter() {
        // Another derived type, which the stream processor skips (a base type would be poison: a letter of its own).
        dynamo.putItem(r -> r.tableName(runner.tableName()).item(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#2020-02-02"), "sk", AttributeValue.fromS("x"),
                "entityType", AttributeValue.fromS("ShardCursor"))));

        Run refused = run("dead-letters", "delete", "2020-02-02/x");

        assertThat(refused.status()).isEqualTo(3);
        assertThat(dynamo.getItem(r -> r.tableName(runner.tableName()).key(Map.of(
                "pk", AttributeValue.fromS("DEADLETTER#2020-02-02"), "sk", AttributeValue.fromS("x")))).hasItem()).isTrue();
    }

    @Test
    void malformedId_isAUsageError() {
        Run show = run("dead-letters", "show", "no-slash");

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
