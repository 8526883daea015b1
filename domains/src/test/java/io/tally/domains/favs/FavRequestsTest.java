package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.read.ShardMerge.Position;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class FavRequestsTest {
    private static final Instant T = Instant.parse("2021-10-10T05:45:28.000Z");
    private static final Favourite FAV = new Favourite("u1", "f1", FavouriteType.LINK, "Pizza", null, null, null, T, "fi1");
    private static final Tag TAG = new Tag("u1", "t1", "Food", T, T, "ti1");

    @Test
    void createTag_checksTheUserReservesTheNamePutsTheTagAndClaimsTheQuota_inThatOrder() {
        TransactWriteItem quota = TransactWriteItem.builder().build();
        List<TransactWriteItem> actions = TagRequests.create("t", TAG, quota).transactItems();
        assertThat(actions.get(TagRequests.CREATE_QUOTA)).isSameAs(quota);
        assertThat(actions.get(TagRequests.CREATE_USER).conditionCheck().key().get("pk").s()).isEqualTo("USER#u1");
        assertThat(actions.get(TagRequests.CREATE_NAME).put().item().get("sk").s()).isEqualTo("TAGNAME#food");
        assertThat(actions.get(TagRequests.CREATE_NAME).put().conditionExpression()).isEqualTo("attribute_not_exists(pk)");
        assertThat(actions.get(TagRequests.CREATE_TAG).put().item().get("sk").s()).isEqualTo("TAG#t1");
    }

    @Test
    void rename_movesTheReservationForANewName_keepsItForACaseChange() {
        TransactWriteItemsRequest renamed = TagRequests.rename("t", TAG, "Meals");
        assertThat(renamed.transactItems()).hasSize(3);
        assertThat(renamed.transactItems().get(TagRequests.RENAME_TAG).update().conditionExpression())
                .isEqualTo("#incarnation = :incarnation AND #name = :read");
        assertThat(renamed.transactItems().get(TagRequests.RENAME_TAG).update().expressionAttributeValues())
                .containsEntry(":read", AttributeValue.fromS("Food"));
        assertThat(renamed.transactItems().get(1).delete().key().get("sk").s()).isEqualTo("TAGNAME#food");
        assertThat(renamed.transactItems().get(1).delete().expressionAttributeValues())
                .containsEntry(":tagId", AttributeValue.fromS("t1"));
        assertThat(renamed.transactItems().get(TagRequests.RENAME_NEW_NAME).put().item().get("sk").s())
                .isEqualTo("TAGNAME#meals");
        assertThat(TagRequests.rename("t", TAG, "FOOD").transactItems()).hasSize(1);
    }

    @Test
    void touch_isConditionalOnTheAccessRead_andMovesTheTagInItsLsi() {
        UpdateItemRequest touch = TagRequests.touch("t", TAG, T.plusSeconds(120));
        assertThat(touch.conditionExpression()).isEqualTo("#incarnation = :incarnation AND #at = :read");
        assertThat(touch.expressionAttributeValues()).containsEntry(":read", AttributeValue.fromS("2021-10-10T05:45:28.000Z"))
                .containsEntry(":atKey", AttributeValue.fromS("2021-10-10T05:47:28.000Z#t1"));
    }

    @Test
    void tagLists_oneLsiEach_nameAscendingTheOthersNewestFirst_consistent() {
        QueryRequest byName = TagRequests.list("t", "u1", TagRequests.Sort.NAME, 25, null);
        assertThat(byName.indexName()).isEqualTo("TagsByName");
        assertThat(byName.scanIndexForward()).isTrue();
        assertThat(byName.consistentRead()).isTrue();
        assertThat(byName.limit()).isEqualTo(26);
        assertThat(TagRequests.list("t", "u1", TagRequests.Sort.ACCESSED, 25, null).scanIndexForward()).isFalse();
    }

    @Test
    void link_checksBothIncarnationsAndPutsUnlessTheSameLinkIsThere_andClaimsTheQuota() {
        TransactWriteItem quota = TransactWriteItem.builder().build();
        List<TransactWriteItem> actions = FavRequests.link("t", new FavouriteTag(FAV, "t1", T, "ti1"), quota)
                .transactItems();
        assertThat(actions.get(FavRequests.LINK_QUOTA)).isSameAs(quota);
        assertThat(actions.get(FavRequests.LINK_FAVOURITE).conditionCheck().expressionAttributeValues())
                .containsEntry(":incarnation", AttributeValue.fromS("fi1"));
        assertThat(actions.get(FavRequests.LINK_TAG).conditionCheck().key().get("sk").s()).isEqualTo("TAG#t1");
        assertThat(actions.get(FavRequests.LINK_PUT).put().conditionExpression())
                .isEqualTo("attribute_not_exists(pk) OR #f <> :f OR #t <> :t");
        assertThat(actions.get(FavRequests.LINK_PUT).put().returnValuesOnConditionCheckFailureAsString())
                .isEqualTo("ALL_OLD");
    }

    @Test
    void search_readsThePartitionOfTheLongestWordsTerm_andFiltersOnEveryWord() {
        QueryRequest search = FavRequests.search("t", "u1", List.of("in", "internationalisation", "na"), 25, null);
        assertThat(search.indexName()).isEqualTo("FavouriteSearch");
        assertThat(search.expressionAttributeValues()).containsEntry(":partition", AttributeValue.fromS("u1#inte"))
                .containsEntry(":w0", AttributeValue.fromS(" in "))
                .containsEntry(":w1", AttributeValue.fromS(" internationalisation "))
                .containsEntry(":w2", AttributeValue.fromS(" na"));
        assertThat(search.filterExpression())
                .isEqualTo("contains(#words, :w0) AND contains(#words, :w1) AND contains(#words, :w2)");
        assertThat(search.scanIndexForward()).isFalse();
    }

    @Test
    void allTypes_oneShardPerType_resumedAfterAPosition() {
        QueryRequest video = FavRequests.allTypesShard("t", "u1", 1, 25,
                new Position("2021-10-10T05:45:28.000Z", "f1"));
        assertThat(video.expressionAttributeValues()).containsEntry(":partition", AttributeValue.fromS("u1#video"));
        assertThat(video.exclusiveStartKey()).isEqualTo(Map.of(
                "pk", AttributeValue.fromS("FAVS#u1"), "sk", AttributeValue.fromS("FAV#f1"),
                "favTypeKey", AttributeValue.fromS("u1#video"),
                "clippedKey", AttributeValue.fromS("2021-10-10T05:45:28.000Z#f1")));
        assertThat(FavRequests.position(FAV.toItem())).isEqualTo(new Position("2021-10-10T05:45:28.000Z", "f1"));
        assertThat(FavRequests.isValidPosition(new Position("2021-10-10T05:45:28Z", "f1"))).isFalse();
        assertThat(FavRequests.isValidPosition(new Position("2021-10-10T05:45:28.000Z", "a#b"))).isFalse();
    }

    @Test
    void createFavourite_andReads_andRemovals_areOneConsistentReadOrOneConditionalWriteOfTheKey() {
        TransactWriteItemsRequest create = FavRequests.create("t", FAV);
        assertThat(create.transactItems().get(FavRequests.CREATE_USER).conditionCheck().key().get("pk").s())
                .isEqualTo("USER#u1");
        assertThat(create.transactItems().get(FavRequests.CREATE_FAVOURITE).put().conditionExpression())
                .isEqualTo("attribute_not_exists(pk)");
        assertThat(create.transactItems().get(FavRequests.CREATE_FAVOURITE).put().item()).isEqualTo(FAV.toItem());
        for (GetItemRequest get : List.of(FavRequests.get("t", "u1", "f1"), TagRequests.get("t", "u1", "t1"))) {
            assertThat(get.tableName()).isEqualTo("t");
            assertThat(get.consistentRead()).isTrue();
            assertThat(get.projectionExpression()).isNull();
        }
        QueryRequest stats = FavRequests.stats("t", "u1");
        assertThat(stats.consistentRead()).isTrue();
        assertThat(stats.projectionExpression()).isNull();
        assertThat(stats.keyConditionExpression()).isEqualTo("#pk = :pk AND begins_with(#sk, :sk)");
        assertThat(stats.expressionAttributeValues().get(":sk").s()).isEqualTo("#STATS#");
        assertThat(TagRequests.get("t", "u1", "t1").key().get("sk").s()).isEqualTo("TAG#t1");
        DeleteItemRequest uncollect = FavRequests.delete("t", "u1", "f1");
        DeleteItemRequest unlink = FavRequests.unlink("t", "u1", "f1", "t1");
        assertThat(uncollect.key().get("sk").s()).isEqualTo("FAV#f1");
        assertThat(unlink.key().get("pk").s()).isEqualTo("FAVTAGS#u1#f1");
        for (DeleteItemRequest delete : List.of(uncollect, unlink)) {
            assertThat(delete.conditionExpression()).isEqualTo("attribute_exists(pk)");
            assertThat(delete.returnValues()).isEqualTo(ReturnValue.ALL_OLD);
        }
    }
}
