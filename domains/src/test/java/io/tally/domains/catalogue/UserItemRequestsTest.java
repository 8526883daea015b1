package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

class UserItemRequestsTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-22T11:15:00.000Z");

    private static UserItem item(ItemState state, long score, Instant enteredAt, Instant updatedAt) {
        return new UserItem("user-8790", "item-55", state, score, null, null, null, enteredAt, updatedAt);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", s(pk), "sk", s(sk));
    }

    private static Map<String, AttributeValue> withVersion(UserItem item, long version) {
        Map<String, AttributeValue> attributes = new HashMap<>(item.toItem());
        attributes.put("version", AttributeValue.fromN(Long.toString(version)));
        return attributes;
    }

    private static List<TransactWriteItem> actions(TransactWriteItemsRequest request) {
        return request.transactItems();
    }

    @Test
    void get_userItem_readsTheAuthoritativeKeyConsistently() {
        assertThat(UserItemRequests.get("t", "user-8790", "item-55")).isEqualTo(GetItemRequest.builder()
                .tableName("t")
                .key(key("USER#user-8790", "useritem#item-55"))
                .consistentRead(true)
                .build());
    }

    @Test
    void user_anyId_readsOnlyTheKeyConsistently() {
        assertThat(UserItemRequests.user("t", "user-8790")).isEqualTo(GetItemRequest.builder()
                .tableName("t")
                .key(key("USER#user-8790", "#METADATA#user-8790"))
                .projectionExpression("pk")
                .consistentRead(true)
                .build());
    }

    @Test
    void put_newItem_checksUserAndItemAndRequiresAbsence() {
        UserItem next = item(ItemState.ASSIGNED, 87, T1, T1);

        TransactWriteItemsRequest request = UserItemRequests.put("t", next, null);

        assertThat(actions(request)).containsExactly(
                TransactWriteItem.builder().conditionCheck(ConditionCheck.builder()
                        .tableName("t")
                        .key(key("USER#user-8790", "#METADATA#user-8790"))
                        .conditionExpression("attribute_exists(pk)")
                        .build()).build(),
                TransactWriteItem.builder().conditionCheck(ConditionCheck.builder()
                        .tableName("t")
                        .key(key("ITEM#item-55", "#METADATA#"))
                        .conditionExpression("attribute_exists(pk)")
                        .build()).build(),
                TransactWriteItem.builder().put(Put.builder()
                        .tableName("t")
                        .item(withVersion(next, 1))
                        .conditionExpression("attribute_not_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build()).build(),
                TransactWriteItem.builder().put(Put.builder()
                        .tableName("t")
                        .item(next.toEntryItem())
                        .build()).build());
        assertThat(next.toEntryItem().get("sk")).isEqualTo(s("item:assigned:0000000087#item-55"));
    }

    @Test
    void put_positions_matchTheConstantsThatReadCancellationReasons() {
        UserItem current = item(ItemState.ASSIGNED, 87, T1, T1);
        UserItem next = item(ItemState.COMPLETED, 87, T2, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 3L)));

        assertThat(actions).hasSize(5);
        assertThat(actions.get(UserItemRequests.USER_CHECK).conditionCheck().key().get("pk")).isEqualTo(s("USER#user-8790"));
        assertThat(actions.get(UserItemRequests.CATALOGUE_ITEM_CHECK).conditionCheck().key().get("pk"))
                .isEqualTo(s("ITEM#item-55"));
        assertThat(actions.get(UserItemRequests.AUTHORITATIVE_PUT).put().item().get("sk")).isEqualTo(s("useritem#item-55"));
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().item().get("sk"))
                .isEqualTo(s("item:completed:2019-01-22T11:15:00.000Z#item-55"));
        assertThat(actions.get(UserItemRequests.OLD_ENTRY_DELETE).delete().key().get("sk"))
                .isEqualTo(s("item:assigned:0000000087#item-55"));
    }

    @Test
    void put_existingItem_requiresSameVersionAndNotCompletedAndBumpsVersion() {
        UserItem current = item(ItemState.ASSIGNED, 87, T1, T1);
        UserItem next = item(ItemState.ORPHANED, 87, T2, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 3L)));

        assertThat(actions.get(UserItemRequests.AUTHORITATIVE_PUT).put()).isEqualTo(Put.builder()
                .tableName("t")
                .item(withVersion(next, 4))
                .conditionExpression("#state <> :completed AND version = :version")
                .expressionAttributeNames(Map.of("#state", "state"))
                .expressionAttributeValues(Map.of(":completed", s("completed"), ":version", AttributeValue.fromN("3")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build());
        assertThat(actions.get(UserItemRequests.OLD_ENTRY_DELETE)).isEqualTo(TransactWriteItem.builder()
                .delete(Delete.builder()
                        .tableName("t")
                        .key(key("USER#user-8790", "item:assigned:0000000087#item-55"))
                        .build())
                .build());
    }

    @Test
    void put_existingItemWithoutVersion_requiresThatNoneAppearedMeanwhile() {
        UserItem current = item(ItemState.ASSIGNED, 87, T1, T1);
        UserItem next = item(ItemState.ORPHANED, 87, T2, T2);

        Put put = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, null)))
                .get(UserItemRequests.AUTHORITATIVE_PUT).put();

        assertThat(put.conditionExpression()).isEqualTo("#state <> :completed AND attribute_not_exists(version)");
        assertThat(put.expressionAttributeValues()).isEqualTo(Map.of(":completed", s("completed")));
        assertThat(put.item().get("version")).isEqualTo(AttributeValue.fromN("1"));
    }

    @Test
    void put_intoProgress_takesTheSingleSlotOnlyIfFreeOrOwn() {
        UserItem current = item(ItemState.ASSIGNED, 87, T1, T1);
        UserItem next = item(ItemState.IN_PROGRESS, 87, T2, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 1L)));

        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put()).isEqualTo(Put.builder()
                .tableName("t")
                .item(next.toEntryItem())
                .conditionExpression("attribute_not_exists(pk) OR itemId = :itemId")
                .expressionAttributeValues(Map.of(":itemId", s("item-55")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build());
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().item().get("sk")).isEqualTo(s("item:in-progress"));
        assertThat(actions).hasSize(5);
    }

    @Test
    void put_inProgressStaysInProgress_putsTheSlotOnceWithoutDelete() {
        UserItem current = new UserItem("user-8790", "item-55", ItemState.IN_PROGRESS, 87, 0.5, null, null, T1, T1);
        UserItem next = new UserItem("user-8790", "item-55", ItemState.IN_PROGRESS, 87, 0.87, null, null, T1, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 2L)));

        assertThat(actions).hasSize(4).noneMatch(a -> a.delete() != null);
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().conditionExpression())
                .isEqualTo("attribute_not_exists(pk) OR itemId = :itemId");
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().item().get("progress")).isEqualTo(AttributeValue.fromN("0.87"));
    }

    @Test
    void put_sameAssignedKey_putsTheEntryOnceUnconditionally() {
        UserItem current = item(ItemState.ASSIGNED, 87, T1, T1);
        UserItem next = item(ItemState.ASSIGNED, 87, T1, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 2L)));

        assertThat(actions).hasSize(4);
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().conditionExpression()).isNull();
    }

    @Test
    void put_scoreChangedInAssigned_movesTheEntry() {
        UserItem current = item(ItemState.ASSIGNED, 87, T1, T1);
        UserItem next = item(ItemState.ASSIGNED, 350, T1, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 2L)));

        assertThat(actions).hasSize(5);
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().item().get("sk"))
                .isEqualTo(s("item:assigned:0000000350#item-55"));
        assertThat(actions.get(UserItemRequests.OLD_ENTRY_DELETE).delete().key().get("sk"))
                .isEqualTo(s("item:assigned:0000000087#item-55"));
    }

    @Test
    void put_leavingProgress_deletesTheSlot() {
        UserItem current = item(ItemState.IN_PROGRESS, 87, T1, T1);
        UserItem next = item(ItemState.COMPLETED, 87, T2, T2);

        List<TransactWriteItem> actions = actions(UserItemRequests.put("t", next, new VersionedUserItem(current, 2L)));

        assertThat(actions.get(UserItemRequests.OLD_ENTRY_DELETE).delete().key())
                .isEqualTo(key("USER#user-8790", "item:in-progress"));
        assertThat(actions.get(UserItemRequests.ENTRY_PUT).put().conditionExpression()).isNull();
    }

    @Test
    void list_assigned_queriesThePrefixHighestScoreFirstOneBeyondThePage() {
        QueryRequest request = UserItemRequests.list("t", "user-8790", ItemState.ASSIGNED, 25, null);

        assertThat(request).isEqualTo(QueryRequest.builder()
                .tableName("t")
                .keyConditionExpression("pk = :pk AND begins_with(sk, :sk)")
                .expressionAttributeValues(Map.of(":pk", s("USER#user-8790"), ":sk", s("item:assigned:")))
                .scanIndexForward(false)
                .limit(26)
                .consistentRead(true)
                .build());
        assertThat(request.hasExclusiveStartKey()).isFalse();
    }

    @Test
    void list_completedAndOrphaned_queryTheirPrefixNewestFirst() {
        for (ItemState state : new ItemState[] {ItemState.COMPLETED, ItemState.ORPHANED}) {
            QueryRequest request = UserItemRequests.list("t", "u", state, 2, null);
            assertThat(request.expressionAttributeValues().get(":sk")).isEqualTo(s("item:" + state.value() + ":"));
            assertThat(request.keyConditionExpression()).isEqualTo("pk = :pk AND begins_with(sk, :sk)");
            assertThat(request.scanIndexForward()).isFalse();
        }
    }

    @Test
    void list_inProgress_queriesTheSingleKey() {
        QueryRequest request = UserItemRequests.list("t", "u", ItemState.IN_PROGRESS, 25, null);

        assertThat(request.keyConditionExpression()).isEqualTo("pk = :pk AND sk = :sk");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":pk", s("USER#u"), ":sk", s("item:in-progress")));
    }

    @Test
    void list_withCursorKey_startsAfterIt() {
        Map<String, AttributeValue> start = key("USER#u", "item:assigned:0000000087#item-45");

        assertThat(UserItemRequests.list("t", "u", ItemState.ASSIGNED, 2, start).exclusiveStartKey()).isEqualTo(start);
    }

    @Test
    void listScope_differsByUserAndState() {
        assertThat(UserItemRequests.listScope("u", ItemState.ASSIGNED))
                .isNotEqualTo(UserItemRequests.listScope("u", ItemState.COMPLETED))
                .isNotEqualTo(UserItemRequests.listScope("v", ItemState.ASSIGNED));
    }
}
