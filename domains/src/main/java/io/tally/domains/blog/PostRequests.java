package io.tally.domains.blog;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.http.IfMatch;
import io.tally.core.store.Requests;
import io.tally.core.store.VersionedUpdates;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Pure builders of the post requests; tested by comparing the requests they build. */
final class PostRequests {
    /** Positions of the actions of {@link #create}, to read the cancellation reasons by. */
    static final int CREATE_REF = 0;
    static final int CREATE_USER = 1;
    static final int CREATE_POST = 2;

    /** The key attributes of the posts-by-time index, which its pagination cursors consist of. */
    static final Set<String> LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK, TableSchema.POSTED_AT);

    private PostRequests() {
    }

    /**
     * Writes the post together with its {@link PostRef}. The ref's condition makes post ids unique across all
     * users (the post's own key holds its user and time, so its condition alone could not); the condition
     * check makes sure no post is written under a user who does not exist. One transaction, so that neither
     * item can exist without the other.
     */
    static TransactWriteItemsRequest create(String table, Post post) {
        PostRef ref = new PostRef(post.postId(), post.userId(), post.createdAt());
        List<TransactWriteItem> actions = new ArrayList<>(3);
        actions.add(CREATE_REF, Requests.putNewAction(table, ref.toItem()));
        actions.add(CREATE_USER, Requests.existsAction(table, Users.key(post.userId())));
        actions.add(CREATE_POST, Requests.putNewAction(table, post.toItem()));
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    static GetItemRequest getRef(String table, String postId) {
        return get(table, BlogKeys.postRef(postId));
    }

    /** A post or its ref, read consistently. */
    static GetItemRequest get(String table, Key key) {
        return Requests.consistentGet(table, key);
    }

    /**
     * Changes the given fields, marks the post updated, bumps the version and returns the new item. The
     * condition refuses to create a post, to revive a deleted one and to overwrite a version other than the
     * one in {@code If-Match}; the old image returned on failure tells these apart.
     */
    static UpdateItemRequest update(String table, Key postKey, String title, String body, Instant now, IfMatch ifMatch) {
        List<String> sets = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        if (title != null) {
            sets.add("#title = :title");
            names.put("#title", Post.TITLE);
            values.put(":title", AttributeValue.fromS(title));
        }
        if (body != null) {
            sets.add("#body = :body");
            names.put("#body", Post.BODY);
            values.put(":body", AttributeValue.fromS(body));
        }
        sets.add("#status = :updated");
        values.put(":updated", AttributeValue.fromS(PostStatus.UPDATED.value()));
        return changeStatus(table, postKey, sets, names, values, now, ifMatch);
    }

    /** The soft delete: the item stays, with status {@code deleted}, under the same conditions as an update. */
    static UpdateItemRequest delete(String table, Key postKey, Instant now, IfMatch ifMatch) {
        List<String> sets = new ArrayList<>();
        sets.add("#status = :deleted");
        return changeStatus(table, postKey, sets, new HashMap<>(), new HashMap<>(), now, ifMatch);
    }

    private static UpdateItemRequest changeStatus(String table, Key postKey, List<String> sets, Map<String, String> names,
                                                  Map<String, AttributeValue> values, Instant now, IfMatch ifMatch) {
        names.put("#status", Post.STATUS);
        values.put(":deleted", AttributeValue.fromS(PostStatus.DELETED.value()));
        return VersionedUpdates.request(table, postKey, sets, names, values,
                "attribute_exists(pk) AND #status <> :deleted", now, ifMatch.version());
    }

    /**
     * One page of a user's posts, newest first. The base sort key orders posts by id (and ids may be chosen
     * by the client), so the query runs on the sparse time index, which holds the posts and nothing else of
     * the user's partition. It asks for one item more than the page so that the last page can say so.
     */
    static QueryRequest list(String table, String userId, int limit, Map<String, AttributeValue> exclusiveStartKey) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(TableSchema.POSTS_BY_TIME_INDEX)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(Users.pk(userId))))
                .scanIndexForward(false)
                .consistentRead(true)
                .limit(limit + 1)
                .exclusiveStartKey(exclusiveStartKey)
                .build();
    }
}
