package io.tally.domains.favs;

import io.tally.core.http.ApiException;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transactions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** A user's tags and their name reservations: where a cancelled transaction becomes the client's answer. */
record TagStore(DynamoDbClient dynamo, String table) {
    /** A tag's last access is written at most once per this interval: a list by tag is not a write per read. */
    static final Duration ACCESS_GRANULARITY = Duration.ofMinutes(1);
    private static final Logger LOG = Logger.getLogger(TagStore.class.getName());

    /**
     * A missing user is a 404 before a taken name or id is a 409, and those before a full quota (a 409 naming the
     * limit). A tag created by another request between the count and the write makes the count start again.
     */
    void create(Tag tag) {
        for (int attempt = 1; ; attempt++) {
            try {
                Transactions.write(dynamo, TagRequests.create(table, tag,
                        FavQuota.tags(table, tag.userId()).claim(dynamo)));
                return;
            } catch (TransactionCanceledException e) {
                if (Transactions.conditionFailed(e, TagRequests.CREATE_USER)) {
                    throw FavStore.userNotFound(tag.userId());
                }
                if (Transactions.conditionFailed(e, TagRequests.CREATE_NAME)) {
                    throw nameTaken(tag.name());
                }
                if (Transactions.conditionFailed(e, TagRequests.CREATE_TAG)) {
                    throw ApiException.conflict("tag '" + tag.tagId() + "' already exists");
                }
                if (!Transactions.conditionFailed(e, TagRequests.CREATE_QUOTA)) {
                    throw e;
                }
                if (attempt == Transactions.ATTEMPTS) {
                    throw ApiException.unavailable("the tags of user '" + tag.userId() + "' keep changing; retry");
                }
            }
        }
    }

    /** The tag, read consistently; {@code not_found} when there is none. */
    Tag get(String userId, String tagId) {
        Map<String, AttributeValue> item = dynamo.getItem(TagRequests.get(table, userId, tagId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId, tagId);
        }
        return Tag.fromItem(item);
    }

    /** The tag after the rename; {@code not_found} without one, {@code conflict} when the name is taken. */
    Tag rename(String userId, String tagId, String name) {
        return asRead(userId, tagId, tag -> TagRequests.rename(table, tag, name), e -> {
            if (Transactions.conditionFailed(e, TagRequests.RENAME_NEW_NAME)) {
                throw nameTaken(name);
            }
        }).renamed(name);
    }

    /** Deletes the tag and frees its name; the tag as it was, or {@code not_found}. */
    Tag delete(String userId, String tagId) {
        return asRead(userId, tagId, tag -> TagRequests.delete(table, tag), e -> { });
    }

    /**
     * Reads the tag and writes the transaction built from it, whose first two actions hold only while the tag and its
     * reservation are as read. When they no longer are (a concurrent rename or delete) the tag is read again, and a
     * tag that is gone is {@code not_found}; {@code refused} maps the transaction's other refusals first.
     */
    private Tag asRead(String userId, String tagId, Function<Tag, TransactWriteItemsRequest> write,
                       Consumer<TransactionCanceledException> refused) {
        for (int attempt = 1; ; attempt++) {
            Tag tag = get(userId, tagId);
            try {
                Transactions.write(dynamo, write.apply(tag));
                return tag;
            } catch (TransactionCanceledException e) {
                refused.accept(e);
                boolean changed = Transactions.conditionFailed(e, 0) || Transactions.conditionFailed(e, 1);
                if (!changed) {
                    throw e;
                }
                if (attempt == Transactions.ATTEMPTS) {
                    throw ApiException.unavailable("tag '" + tagId + "' keeps changing; retry");
                }
            }
        }
    }

    QueryPage list(String userId, TagRequests.Sort sort, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(TagRequests.list(table, userId, sort, limit, start)), limit, sort.listKey());
    }

    /**
     * Records an access of the tag, cheaply: nothing when it was accessed within {@link #ACCESS_GRANULARITY}, else one
     * conditional update that loses quietly to a concurrent one. Never fails the read it serves: an error is logged.
     */
    void touch(Tag tag, Instant now) {
        if (tag.lastAccessAt().plus(ACCESS_GRANULARITY).isAfter(now)) {
            return;
        }
        try {
            dynamo.updateItem(TagRequests.touch(table, tag, now));
        } catch (ConditionalCheckFailedException e) {
            // Another reader recorded an access meanwhile, or the tag is gone: either way nothing to do.
        } catch (SdkException e) {
            LOG.log(Level.WARNING, "could not record an access of tag " + tag.tagId() + " of user " + tag.userId(), e);
        }
    }

    static ApiException notFound(String userId, String tagId) {
        return ApiException.notFound("user '" + userId + "' has no tag '" + tagId + "'");
    }

    private static ApiException nameTaken(String name) {
        return ApiException.conflict("a tag named '" + name + "' (ignoring case) already exists");
    }
}
