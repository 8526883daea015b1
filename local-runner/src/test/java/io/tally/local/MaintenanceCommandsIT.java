package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.domains.blog.BlogKeys;
import io.tally.stream.engine.CursorRegistry;
import io.tally.stream.engine.Watermarks;
import java.time.Instant;
import java.util.HashMap;
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

/** {@code tally-local verify} and {@code prune-watermarks} against a running local pipeline. */
class MaintenanceCommandsIT {
    private static LocalRunner runner;

    @BeforeAll
    static void startAndWrite() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        Api api = new Api(runner.baseUri());
        api.ok("POST", "/users", "{\"userId\":\"mia\",\"name\":\"Mia\",\"email\":\"mia@example.com\"}");
        api.ok("POST", "/users/mia/posts", "{\"postId\":\"m1\",\"title\":\"One\",\"body\":\"first\"}");
        api.ok("POST", "/users/mia/posts", "{\"postId\":\"m2\",\"title\":\"Two\",\"body\":\"second\"}");
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    private static String endpoint() {
        return runner.dynamoDbEndpoint().toString();
    }

    /** A client of the runner's DynamoDB Local, to change the table behind the pipeline's back. */
    private static DynamoDbClient dynamo() {
        return DynamoDbClient.builder().endpointOverride(runner.dynamoDbEndpoint())
                .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .build();
    }

    @Test
    void verify_corruptedStats_reportsTheDifference_repairFixesIt() {
        assertThat(run("verify", "--endpoint", endpoint()).out()).contains("derived data is exact");

        try (DynamoDbClient dynamo = dynamo()) {
            dynamo.updateItem(r -> r.tableName("tally")
                    .key(Map.of("pk", AttributeValue.fromS("USER#mia"), "sk", AttributeValue.fromS("#STATS#")))
                    .updateExpression("SET posts = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromN("9"))));
        }

        // The user's stats are shared: the posts counted by the stream are in its shard's partial, summed with the 9.
        CommandRun found = run("verify", "--endpoint", endpoint());
        assertThat(found.status()).isEqualTo(3);
        assertThat(found.out()).contains("1 differing attributes").contains("USER#mia / #STATS# (UserStats) posts: expected 2, found 11");
        assertThat(found.err()).contains("scanned");

        CommandRun repaired = run("verify", "--endpoint", endpoint(), "--repair", "--stream-readers", "2");
        assertThat(repaired.status()).isZero();
        assertThat(repaired.out()).contains("1 differing attributes found")
                // The stats item and its partial, repaired as one group.
                .contains("repaired: wrote 2 derived items with their content and watermarks at the stream position")
                .containsPattern("stream position: arn:aws:dynamodb:\\S+/stream/\\S+ \\{shardId-\\S+=\\d+");

        CommandRun after = run("verify", "--endpoint", endpoint());
        assertThat(after.status()).isZero();
        assertThat(after.out()).contains("derived data is exact");
    }

    @Test
    void pruneWatermarks_liveStream_removesNothing() {
        CommandRun pruned = run("prune-watermarks", "--endpoint", endpoint());

        assertThat(pruned.status()).isZero();
        assertThat(pruned.out()).contains("complete: scanned ").contains("removed 0 watermarks of gone shards from 0 items");
    }

    @Test
    void pruneWatermarks_aRecentCursorOfAShardTheStreamDoesNotList_refusesInOneLineAndStatus1() {
        Map<String, AttributeValue> cursor = new HashMap<>(
                ShardCursorItem.key(Watermarks.token("shardId-as-delivered")).toAttributeMap());
        cursor.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(ShardCursorItem.TYPE.attributeValue()));
        cursor.put(ShardCursorItem.SHARD_ID, AttributeValue.fromS("shardId-as-delivered"));
        cursor.put(ShardCursorItem.UPDATED_AT, AttributeValue.fromS(Instant.now().toString()));
        try (DynamoDbClient dynamo = dynamo()) {
            dynamo.putItem(r -> r.tableName("tally").item(cursor));
            // As a stream processor's claim enters the cursor it creates in the cursor registry.
            String token = Watermarks.token("shardId-as-delivered");
            dynamo.putItem(CursorRegistry.entry("tally", "shardId-as-delivered", token, Instant.now()));
            dynamo.updateItem(CursorRegistry.mark("tally", token));
            try {
                CommandRun refused = run("prune-watermarks", "--endpoint", endpoint());

                assertThat(refused.status()).isEqualTo(1);
                assertThat(refused.err()).contains("watermark pruning refused").contains("shardId-as-delivered")
                        .doesNotContain("\tat ");
                assertThat(refused.out()).isEmpty();
            } finally {
                dynamo.deleteItem(r -> r.tableName("tally").key(
                        ShardCursorItem.key(Watermarks.token("shardId-as-delivered")).toAttributeMap()));
                dynamo.deleteItem(r -> r.tableName("tally").key(ShardCursorItem.registryKey(token).toAttributeMap()));
            }
        }
    }

    @Test
    void verify_noStreamReaders_isAUsageError() {
        CommandRun none = run("verify", "--endpoint", endpoint(), "--stream-readers", "0");
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).contains("--stream-readers must be at least 1");
    }

    @Test
    void verify_shards_takesTheDeclaredSettings_andRefusesAnyOtherOrACountOutOfRange() {
        // The run wrote with the default counts: a declared setting at its default is exact, another count differs.
        assertThat(run("verify", "--endpoint", endpoint(), "--shards", "SELECTOR_SHARDS=4").out())
                .contains("derived data is exact");
        // The options before --shards still run a runbook written for them.
        assertThat(run("verify", "--endpoint", endpoint(), "--global-shards", "4", "--status-shards", "4").out())
                .contains("derived data is exact");
        CommandRun unknown = run("verify", "--endpoint", endpoint(), "--shards", "SHELF_SHARDS=2");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("--shards SHELF_SHARDS: no loaded domain declares it")
                .contains("GLOBAL_SHARDS", "STATUS_SHARDS", "SELECTOR_SHARDS");
        CommandRun outOfRange = run("verify", "--endpoint", endpoint(), "--shards", "GLOBAL_SHARDS=101");
        assertThat(outOfRange.status()).isEqualTo(2);
        assertThat(outOfRange.err()).contains("--shards GLOBAL_SHARDS must be a whole number 1..100, not '101'");
    }

    @Test
    void verify_unknownTable_oneLineAndStatus2() {
        CommandRun missing = run("verify", "--endpoint", endpoint(), "--table-name", "no-such-table");

        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("verify: Cannot do operations on a non-existent table").doesNotContain("\tat ");
    }

    @Test
    void verify_aDerivedItemDeletedOnceTheStreamIsDrained_isADifference_notBehind() throws Exception {
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
        try (DynamoDbClient dynamo = dynamo()) {
            dynamo.deleteItem(r -> r.tableName("tally").key(BlogKeys.postProjection("m2").toAttributeMap()));
        }

        // The cursors say the post's records were applied: nothing is left to wait for, so the missing item differs.
        CommandRun found = run("verify", "--endpoint", endpoint());
        assertThat(found.status()).as(found.out()).isEqualTo(3);
        assertThat(found.out()).contains("(PostProjection)").doesNotContain("behind the stream");

        CommandRun repaired = run("verify", "--endpoint", endpoint(), "--repair");
        assertThat(repaired.status()).as(repaired.out()).isZero();
        assertThat(run("verify", "--endpoint", endpoint()).out()).contains("derived data is exact");
    }

    @Test
    void verify_itemsOfTypesNoLoadedDomainDeclares_namesThem_status6_repairRefusesUnlessAllowed() throws Exception {
        Map<String, AttributeValue> bookmark = new HashMap<>(Map.of("pk", AttributeValue.fromS("BOOKMARK#b1"),
                "sk", AttributeValue.fromS("#METADATA#"), TableSchema.ENTITY_TYPE, AttributeValue.fromS("Bookmark")));
        Map<String, AttributeValue> untyped = Map.of("pk", AttributeValue.fromS("MISC#1"),
                "sk", AttributeValue.fromS("x"));
        try (DynamoDbClient dynamo = dynamo()) {
            dynamo.putItem(r -> r.tableName("tally").item(bookmark));
            dynamo.putItem(r -> r.tableName("tally").item(untyped));
            try {
                runner.awaitDrained(Api.DRAIN_TIMEOUT);
                CommandRun found = run("verify", "--endpoint", endpoint());
                assertThat(found.status()).as(found.out()).isEqualTo(6);
                assertThat(found.out()).contains("2 unreadable base items")
                        .contains("base items of entity types no loaded domain declares (pass each domain's jar with "
                                + "--domain-jar):")
                        .contains("  Bookmark (1)").contains("  (no entityType) (1)")
                        .contains("derived data not verified whole").doesNotContain("derived data is exact");

                CommandRun refused = run("verify", "--endpoint", endpoint(), "--repair");
                assertThat(refused.status()).as(refused.out()).isEqualTo(6);
                assertThat(refused.out()).contains("nothing repaired").contains("  Bookmark (1)")
                        .doesNotContain("repaired: wrote");

                CommandRun allowed = run("verify", "--endpoint", endpoint(), "--repair", "--allow-unknown-types");
                assertThat(allowed.status()).as(allowed.out()).isZero();
                assertThat(allowed.out()).contains("repaired: wrote 0 derived items");
            } finally {
                dynamo.deleteItem(r -> r.tableName("tally").key(Map.of("pk", bookmark.get("pk"), "sk", bookmark.get("sk"))));
                dynamo.deleteItem(r -> r.tableName("tally").key(untyped));
                runner.awaitDrained(Api.DRAIN_TIMEOUT);
            }
        }
        assertThat(run("verify", "--endpoint", endpoint()).status()).isZero();
    }
}
