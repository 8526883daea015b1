package io.tally.domains.favs;
import io.tally.core.Items;
import io.tally.core.TableSchema;
import io.tally.core.store.Requests;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Pure builders of the requests of tags (functions 5 and 6 of seed 004) and their name reservations; tested by
 * comparing the requests they build.
 */
final class TagRequests {
    /** Positions of the actions of {@link #create}. */
    static final int CREATE_USER = 0;
    static final int CREATE_NAME = 1;
    static final int CREATE_TAG = 2;
    static final int CREATE_QUOTA = 3;
    /** Positions of the actions of {@link #rename}: the tag, then (for a new name) the old and the new reservation. */
    static final int RENAME_TAG = 0;
    static final int RENAME_NEW_NAME = 2;
    /** The tag is still the one read: the same incarnation, under the same name (so its reservation is the one read). */
    static final String AS_READ = "#incarnation = :incarnation AND #name = :read";

    /** How a list of tags is sorted: one LSI each; the contract's names. */
    enum Sort {
        NAME("name", TableSchema.TAGS_BY_NAME_INDEX, TableSchema.TAG_NAME_KEY, true),
        CREATED("created", TableSchema.TAGS_BY_CREATION_INDEX, TableSchema.TAG_CREATED_KEY, false),
        ACCESSED("accessed", TableSchema.TAGS_BY_ACCESS_INDEX, TableSchema.TAG_ACCESSED_KEY, false);

        final String value;
        final String index;
        final String rangeKey;
        final boolean ascending;

        Sort(String value, String index, String rangeKey, boolean ascending) {
            this.value = value;
            this.index = index;
            this.rangeKey = rangeKey;
            this.ascending = ascending;
        }

        /** The key attributes of a position in the index: the table key and the index's range key. */
        Set<String> listKey() {
            return Set.of(TableSchema.PK, TableSchema.SK, rangeKey);
        }
    }

    private TagRequests() {
    }

    /**
     * Writes the tag if, at that instant, its user exists, its name (ignoring case) is free for the user and its id
     * is new: the reservation is put in the same transaction, so two requests racing for one name cannot both win;
     * and the user's tag quota is still as it was counted ({@code quota}, {@link FavQuota#claim}).
     */
    static TransactWriteItemsRequest create(String table, Tag tag, TransactWriteItem quota) {
        List<TransactWriteItem> actions = new ArrayList<>(4);
        actions.add(CREATE_USER, Requests.existsAction(table, Users.key(tag.userId())));
        actions.add(CREATE_NAME, reserve(table, new TagName(tag.userId(), tag.name(), tag.tagId())));
        actions.add(CREATE_TAG, Requests.putNewAction(table, tag.toItem()));
        actions.add(CREATE_QUOTA, quota);
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    static GetItemRequest get(String table, String userId, String tagId) {
        return Requests.consistentGet(table, FavKeys.tag(userId, tagId));
    }

    /**
     * Renames the tag that was read (its incarnation and name: a concurrent rename makes this one fail and read again).
     * A new name (ignoring case) moves the reservation in the same transaction: the old one is deleted (it is this
     * tag's), the new one put if free. A change of case alone keeps the reservation.
     */
    static TransactWriteItemsRequest rename(String table, Tag tag, String newName) {
        List<TransactWriteItem> actions = new ArrayList<>(3);
        actions.add(RENAME_TAG, TransactWriteItem.builder().update(Update.builder()
                .tableName(table)
                .key(tag.key().toAttributeMap())
                .updateExpression("SET #name = :name, #nameKey = :nameKey")
                .conditionExpression(AS_READ)
                .expressionAttributeNames(Map.of("#name", Tag.NAME, "#nameKey", TableSchema.TAG_NAME_KEY,
                        "#incarnation", Tag.INCARNATION))
                .expressionAttributeValues(Map.of(":name", AttributeValue.fromS(newName),
                        ":nameKey", AttributeValue.fromS(Tag.nameKey(newName)),
                        ":incarnation", AttributeValue.fromS(tag.incarnation()),
                        ":read", AttributeValue.fromS(tag.name())))
                .build()).build());
        if (!Tag.nameKey(newName).equals(Tag.nameKey(tag.name()))) {
            actions.add(release(table, tag));
            actions.add(reserve(table, new TagName(tag.userId(), newName, tag.tagId())));
        }
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    /**
     * Deletes the tag that was read (its incarnation and name) and frees its name; its links are the stream
     * processor's.
     */
    static TransactWriteItemsRequest delete(String table, Tag tag) {
        return TransactWriteItemsRequest.builder().transactItems(
                TransactWriteItem.builder().delete(Delete.builder()
                        .tableName(table)
                        .key(tag.key().toAttributeMap())
                        .conditionExpression(AS_READ)
                        .expressionAttributeNames(Map.of("#incarnation", Tag.INCARNATION, "#name", Tag.NAME))
                        .expressionAttributeValues(Map.of(":incarnation", AttributeValue.fromS(tag.incarnation()),
                                ":read", AttributeValue.fromS(tag.name())))
                        .build()).build(),
                release(table, tag))
                .build();
    }

    /** One page of the user's tags in one of the three orders (an LSI each, read consistently). */
    static QueryRequest list(String table, String userId, Sort sort, int limit, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(sort.index)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(FavKeys.tagsPk(userId))))
                .scanIndexForward(sort.ascending)
                .consistentRead(true)
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }

    /**
     * Sets the tag's last access, on the condition that it is still the tag and the access time that were read: of
     * two concurrent readers one writes, and a deleted tag is not brought back as a fragment.
     */
    static UpdateItemRequest touch(String table, Tag tag, Instant now) {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(tag.key().toAttributeMap())
                .updateExpression("SET #at = :at, #atKey = :atKey")
                .conditionExpression("#incarnation = :incarnation AND #at = :read")
                .expressionAttributeNames(Map.of("#at", Tag.LAST_ACCESS_AT, "#atKey", TableSchema.TAG_ACCESSED_KEY,
                        "#incarnation", Tag.INCARNATION))
                .expressionAttributeValues(Map.of(
                        ":at", Items.ts(now),
                        ":atKey", AttributeValue.fromS(Tag.timeKey(now, tag.tagId())),
                        ":incarnation", AttributeValue.fromS(tag.incarnation()),
                        ":read", Items.ts(tag.lastAccessAt())))
                .build();
    }

    private static TransactWriteItem reserve(String table, TagName name) {
        return Requests.putNewAction(table, name.toItem());
    }

    private static TransactWriteItem release(String table, Tag tag) {
        return TransactWriteItem.builder().delete(Delete.builder()
                .tableName(table)
                .key(FavKeys.tagName(tag.userId(), tag.name()).toAttributeMap())
                .conditionExpression("#tagId = :tagId")
                .expressionAttributeNames(Map.of("#tagId", TagName.TAG_ID))
                .expressionAttributeValues(Map.of(":tagId", AttributeValue.fromS(tag.tagId())))
                .build()).build();
    }
}
