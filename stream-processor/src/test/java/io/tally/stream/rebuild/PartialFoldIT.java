package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.read.SharedReads;
import io.tally.testkit.LocalDynamoDb;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Folding a partial whose shards are gone into its base item on DynamoDB Local: once, whole, and never over a newer
 * write.
 */
class PartialFoldIT {
    private static final Key BASE = new Key("USER#u1", "#STATS#");
    private static final Key PARTIAL = new Key("USER#u1", "#STATS#~p~aaaaaaaaaaaaaaaa");
    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private String table;

    @BeforeEach
    void createTable() {
        table = LocalDynamoDb.createTable("fold");
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private Map<String, AttributeValue> put(Key key, long version, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put("entityType", AttributeValue.fromS("UserStats"));
        item.put("wv", n(version));
        item.putAll(attributes);
        dynamo.putItem(r -> r.tableName(table).item(item));
        return item;
    }

    private Map<String, AttributeValue> whole() {
        return SharedReads.whole(dynamo, table, BASE, null);
    }

    private boolean exists(Key key) {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table).key(key.toAttributeMap())
                .consistentRead(true)).item();
        return item != null && !item.isEmpty();
    }

    @Test
    void fold_addsTheCountersToTheBaseItemAndDeletesThePartial_theSumUnchanged() {
        put(BASE, 3, Map.of("userId", AttributeValue.fromS("u1"), "posts", n(2)));
        Map<String, AttributeValue> partial = put(PARTIAL, 5, Map.of("posts", n(1), "comments", n(-1),
                "wm_aaaaaaaaaaaaaaaa", AttributeValue.fromS("0000000000000000000000000000000000000042")));
        Map<String, AttributeValue> before = whole();

        PartialFold.steps(table, partial).forEach(dynamo::transactWriteItems);

        assertThat(whole()).isEqualTo(before);
        assertThat(exists(PARTIAL)).isFalse();
        Map<String, AttributeValue> base = dynamo.getItem(r -> r.tableName(table).key(BASE.toAttributeMap())).item();
        assertThat(base).containsEntry("posts", n(3)).containsEntry("comments", n(-1))
                .containsEntry("userId", AttributeValue.fromS("u1")).doesNotContainKey("wm_aaaaaaaaaaaaaaaa");
    }

    @Test
    void fold_withoutABaseItem_createsItWithTheEntityType() {
        Map<String, AttributeValue> partial = put(PARTIAL, 1, Map.of("posts", n(4)));

        PartialFold.steps(table, partial).forEach(dynamo::transactWriteItems);

        assertThat(whole()).containsEntry("posts", n(4)).containsEntry("entityType", AttributeValue.fromS("UserStats"));
        assertThat(exists(PARTIAL)).isFalse();
    }

    @Test
    void foldAgain_orOverAPartialWrittenSinceItWasRead_isRefused_nothingCountedTwiceOrLost() {
        Map<String, AttributeValue> partial = put(PARTIAL, 5, Map.of("posts", n(1)));
        List<TransactWriteItemsRequest> steps = PartialFold.steps(table, partial);
        steps.forEach(dynamo::transactWriteItems);

        // The same fold again (a pass that ran twice): the partial is gone, the condition refuses.
        assertThatThrownBy(() -> dynamo.transactWriteItems(steps.get(0)))
                .isInstanceOf(TransactionCanceledException.class);
        assertThat(whole()).containsEntry("posts", n(1));

        // A partial read, then written again before the fold: the fold is refused and leaves it to the next pass.
        Map<String, AttributeValue> read = put(PARTIAL, 7, Map.of("posts", n(2)));
        put(PARTIAL, 8, Map.of("posts", n(3)));
        assertThatThrownBy(() -> PartialFold.steps(table, read).forEach(dynamo::transactWriteItems))
                .isInstanceOf(TransactionCanceledException.class);
        assertThat(whole()).containsEntry("posts", n(4));
    }

    @Test
    void aPartialMadeAnewByALaterShardOfItsLineage_atTheSameVersion_isNotFoldedAsTheOldOne() {
        AttributeValue old = AttributeValue.fromS("0000000000000000000000000000000000000042");
        Map<String, AttributeValue> read = put(PARTIAL, 1, Map.of("posts", n(2), "wm_aaaaaaaaaaaaaaaa", old));
        // Another pass folds it; the lineage's next shard then writes the partial again, from write version 1.
        PartialFold.steps(table, read).forEach(dynamo::transactWriteItems);
        put(PARTIAL, 1, Map.of("posts", n(5), "wm_cccccccccccccccc", old));

        // The first pass's fold, of what it read: refused (the new partial holds none of the old one's watermarks).
        assertThatThrownBy(() -> PartialFold.steps(table, read).forEach(dynamo::transactWriteItems))
                .isInstanceOf(TransactionCanceledException.class);
        assertThat(whole()).containsEntry("posts", n(7));
        assertThat(exists(PARTIAL)).isTrue();
    }

    @Test
    void partialsFoldedTogether_oneMadeAnewSinceTheRead_atTheSameVersion_nothingFolded() {
        AttributeValue mark = AttributeValue.fromS("0000000000000000000000000000000000000042");
        Key second = new Key("USER#u1", "#STATS#~p~bbbbbbbbbbbbbbbb");
        Map<String, AttributeValue> one = put(PARTIAL, 1, Map.of("posts", n(1), "wm_aaaaaaaaaaaaaaaa", mark));
        Map<String, AttributeValue> two = put(second, 1, Map.of("posts", n(2), "wm_bbbbbbbbbbbbbbbb", mark));
        TransactWriteItemsRequest together = PartialFold.together(table, List.of(one, two)).orElseThrow();
        // Folded by another pass, then both partials made anew by later shards of their lineages, at version 1.
        dynamo.transactWriteItems(together);
        put(PARTIAL, 1, Map.of("posts", n(5), "wm_cccccccccccccccc", mark));
        put(second, 1, Map.of("posts", n(7), "wm_dddddddddddddddd", mark));

        assertThatThrownBy(() -> dynamo.transactWriteItems(together)).isInstanceOf(TransactionCanceledException.class);
        assertThat(whole()).containsEntry("posts", n(15));
        assertThat(exists(PARTIAL)).isTrue();
        assertThat(exists(second)).isTrue();
    }

    @Test
    void fold_ofAPartialNeverWrittenByTheEngine_thatIsGoneMeanwhile_makesNothing() {
        Map<String, AttributeValue> partial = new HashMap<>(PARTIAL.toAttributeMap());
        partial.put("entityType", AttributeValue.fromS("UserStats"));
        partial.put("posts", n(3));

        // No write version and no item: attribute_not_exists(wv) alone would pass, and add its counts to the base item.
        assertThatThrownBy(() -> PartialFold.steps(table, partial).forEach(dynamo::transactWriteItems))
                .isInstanceOf(TransactionCanceledException.class);
        assertThat(exists(BASE)).isFalse();
    }

    @Test
    void fold_ofMoreCountersThanOneStepTakes_inSeveralSteps_everyCounterMovedOnce() {
        Map<String, AttributeValue> counters = new HashMap<>();
        for (int i = 0; i < 250; i++) {
            counters.put("tag:t" + i, n(i + 1));
        }
        Map<String, AttributeValue> partial = put(PARTIAL, 2, counters);

        List<TransactWriteItemsRequest> steps = PartialFold.steps(table, partial);
        steps.forEach(dynamo::transactWriteItems);

        assertThat(steps).hasSize(3);
        assertThat(exists(PARTIAL)).isFalse();
        Map<String, AttributeValue> whole = whole();
        for (int i = 0; i < 250; i++) {
            assertThat(whole.get("tag:t" + i)).isEqualTo(n(i + 1));
        }
    }

    @Test
    void partialsOfOneItem_foldedTogether_inOneTransaction_theSumUnchanged_andNeverAgain() {
        Key second = new Key("USER#u1", "#STATS#~p~bbbbbbbbbbbbbbbb");
        Key third = new Key("USER#u1", "#STATS#~p~cccccccccccccccc");
        put(BASE, 3, Map.of("posts", n(2)));
        List<Map<String, AttributeValue>> partials = List.of(
                put(PARTIAL, 5, Map.of("posts", n(1), "comments", n(-1))),
                put(second, 2, Map.of("posts", n(4), "comments", n(2))),
                put(third, 9, Map.of("likes", n(7))));
        Map<String, AttributeValue> before = whole();

        TransactWriteItemsRequest together = PartialFold.together(table, partials).orElseThrow();
        dynamo.transactWriteItems(together);

        // Three deletes and one update of the base item: 8 write units, where one fold each is 12.
        assertThat(together.transactItems()).hasSize(4);
        assertThat(whole()).isEqualTo(before);
        assertThat(exists(PARTIAL) || exists(second) || exists(third)).isFalse();
        Map<String, AttributeValue> base = dynamo.getItem(r -> r.tableName(table).key(BASE.toAttributeMap())).item();
        assertThat(base).containsEntry("posts", n(7)).containsEntry("comments", n(1)).containsEntry("likes", n(7));
        assertThatThrownBy(() -> dynamo.transactWriteItems(together)).isInstanceOf(TransactionCanceledException.class);
        assertThat(whole()).isEqualTo(before);
    }

    @Test
    void partialsFoldedTogether_oneWrittenSinceTheRead_nothingFolded() {
        Key second = new Key("USER#u1", "#STATS#~p~bbbbbbbbbbbbbbbb");
        List<Map<String, AttributeValue>> read = List.of(put(PARTIAL, 5, Map.of("posts", n(1))),
                put(second, 2, Map.of("posts", n(4))));
        put(second, 3, Map.of("posts", n(5)));

        assertThatThrownBy(() -> dynamo.transactWriteItems(PartialFold.together(table, read).orElseThrow()))
                .isInstanceOf(TransactionCanceledException.class);

        assertThat(exists(PARTIAL)).isTrue();
        assertThat(whole()).containsEntry("posts", n(6));
    }

    @Test
    void together_onlyForSeveralPartialsOfOneItem_thatOneStepTakes() {
        Map<String, AttributeValue> one = put(PARTIAL, 1, Map.of("posts", n(1)));
        Map<String, AttributeValue> wide = new HashMap<>();
        for (int i = 0; i < PartialFold.COUNTERS_PER_STEP; i++) {
            wide.put("tag:t" + i, n(1));
        }
        Map<String, AttributeValue> other = put(new Key("USER#u1", "#STATS#~p~bbbbbbbbbbbbbbbb"), 1,
                Map.of("tag:extra", n(1)));

        assertThat(PartialFold.together(table, List.of(one))).isEmpty();
        assertThat(PartialFold.together(table, List.of(put(PARTIAL, 2, wide), other))).as("101 counters").isEmpty();
        Map<String, AttributeValue> elsewhere = put(new Key("USER#u2", "#STATS#~p~bbbbbbbbbbbbbbbb"), 1,
                Map.of("posts", n(1)));
        assertThatThrownBy(() -> PartialFold.together(table, List.of(one, elsewhere)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
