package io.tally.domains.favs;

import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.store.ChangedMeanwhile;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transaction;
import io.tally.core.store.Transactions;
import io.tally.core.store.TypedTable;
import io.tally.core.store.Update;
import io.tally.core.users.Users;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user's tags (functions 5 and 6 of seed 004) and their name reservations, and the client's answer to each refused
 * write.
 */
final class TagStore {
    /** A tag's last access is written at most once per this interval: a list by tag is not a write per read. */
    static final Duration ACCESS_GRANULARITY = Duration.ofMinutes(1);
    private static final Logger LOG = Logger.getLogger(TagStore.class.getName());

    /** How a list of tags is sorted: one LSI each; the contract's names. */
    enum Sort {
        NAME("name", FavKeys.TAGS_BY_NAME_INDEX, FavKeys.TAG_NAME_KEY, true),
        CREATED("created", FavKeys.TAGS_BY_CREATION_INDEX, FavKeys.TAG_CREATED_KEY, false),
        ACCESSED("accessed", FavKeys.TAGS_BY_ACCESS_INDEX, FavKeys.TAG_ACCESSED_KEY, false);

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

    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Tag> tags;

    TagStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.tags = TypedTable.of(dynamo, table, Tag.SCHEMA);
    }

    /**
     * Writes the tag if, at that instant, its user exists, its name (ignoring case) is free for the user and its id
     * is new: the reservation is put in the same transaction, so two requests racing for one name cannot both win;
     * and the user's tag quota is still as it was counted ({@link FavQuota#claim}). A missing user is a 404 before a
     * taken name or id is a 409, and those before a full quota (a 409 naming the limit). A tag created by another
     * request between the count and the write makes the count start again.
     */
    void create(Tag tag) {
        for (int attempt = 1; ; attempt++) {
            Transaction write = Transaction.in(dynamo, table);
            write.requireExists(Users.key(tag.userId())).orElse(() -> FavStore.userNotFound(tag.userId()));
            write.putNew(TagName.SCHEMA, new TagName(tag.userId(), tag.name(), tag.tagId()))
                    .orElse(() -> nameTaken(tag.name()));
            write.putNew(Tag.SCHEMA, tag).orElse(() -> ApiException.conflict("tag '" + tag.tagId()
                    + "' already exists"));
            FavQuota.tags(tag.userId()).claim(dynamo, table, write).orElse(ChangedMeanwhile::new);
            try {
                write.commit();
                return;
            } catch (ChangedMeanwhile e) {
                if (attempt == Transactions.ATTEMPTS) {
                    throw ApiException.unavailable("the tags of user '" + tag.userId() + "' keep changing; retry");
                }
            }
        }
    }

    /** The tag, read consistently; {@code not_found} when there is none. */
    Tag get(String userId, String tagId) {
        return tags.get(FavKeys.tag(userId, tagId)).orElseThrow(() -> notFound(userId, tagId));
    }

    /**
     * The tag after the rename; {@code not_found} without one, {@code conflict} when the name is taken. A new name
     * (ignoring case) moves the reservation in the same transaction: the old one is released (it is this tag's), the
     * new one put if free. A change of case alone keeps the reservation.
     */
    Tag rename(String userId, String tagId, String name) {
        return asRead(userId, tagId, (tag, write) -> {
            boolean moves = !Tag.nameKey(name).equals(Tag.nameKey(tag.name()));
            if (moves) {
                write.putNew(TagName.SCHEMA, new TagName(userId, name, tagId)).orElse(() -> nameTaken(name));
            }
            write.update(Tag.SCHEMA, tag.key(), Update.of().set(Tag.NAME, name)
                    .set(FavKeys.TAG_NAME_KEY, Tag.nameKey(name)), asRead(tag)).orElse(ChangedMeanwhile::new);
            if (moves) {
                release(write, tag);
            }
        }).renamed(name);
    }

    /**
     * Deletes the tag and frees its name; the tag as it was, or {@code not_found}. Its links are the stream
     * processor's.
     */
    Tag delete(String userId, String tagId) {
        return asRead(userId, tagId, (tag, write) -> {
            write.delete(Tag.SCHEMA, tag.key(), asRead(tag)).orElse(ChangedMeanwhile::new);
            release(write, tag);
        });
    }

    /**
     * Reads the tag and writes the transaction {@code actions} make of it: its change or removal holds only while the
     * tag and its reservation are as read ({@link #asRead(Tag)}, {@link #release}). When they no longer are (a
     * concurrent rename or delete) the tag is read again, and a tag that is gone is {@code not_found}; a refusal the
     * actions answer before those (a new name taken) is thrown.
     */
    private Tag asRead(String userId, String tagId, BiConsumer<Tag, Transaction> actions) {
        for (int attempt = 1; ; attempt++) {
            Tag tag = get(userId, tagId);
            Transaction write = Transaction.in(dynamo, table);
            actions.accept(tag, write);
            try {
                write.commit();
                return tag;
            } catch (ChangedMeanwhile e) {
                if (attempt == Transactions.ATTEMPTS) {
                    throw ApiException.unavailable("tag '" + tagId + "' keeps changing; retry");
                }
            }
        }
    }

    /** The tag is still the one read: the same incarnation, under the same name (so its reservation is the one read). */
    private static Condition asRead(Tag tag) {
        return Condition.is(Tag.INCARNATION, tag.incarnation()).and(Condition.is(Tag.NAME, tag.name()));
    }

    /** Frees the tag's name: its reservation, on the condition that it is still this tag's. */
    private static void release(Transaction write, Tag tag) {
        write.delete(FavKeys.tagName(tag.userId(), tag.name()), Condition.is(TagName.TAG_ID, tag.tagId()))
                .orElse(ChangedMeanwhile::new);
    }

    /** One page of the user's tags in one of the three orders (an LSI each, read consistently). */
    QueryPage list(String userId, Sort sort, int limit, Map<String, AttributeValue> start) {
        Query query = Query.localIndex(sort.index, FavKeys.tagsPk(userId));
        return tags.page(sort.ascending ? query : query.backwards(), limit, start, sort.listKey());
    }

    /**
     * Records an access of the tag, cheaply: nothing when it was accessed within {@link #ACCESS_GRANULARITY}, else one
     * update on the condition that it is still the tag and the access time that were read: of two concurrent readers
     * one writes, and a deleted tag is not brought back as a fragment. Never fails the read it serves: an error is
     * logged.
     */
    void touch(Tag tag, Instant now) {
        if (tag.lastAccessAt().plus(ACCESS_GRANULARITY).isAfter(now)) {
            return;
        }
        try {
            // Refused: another reader recorded an access meanwhile, or the tag is gone; either way nothing to do.
            tags.set(tag.key(), Update.of().set(Tag.LAST_ACCESS_AT, now)
                            .set(FavKeys.TAG_ACCESSED_KEY, Tag.timeKey(now, tag.tagId())),
                    Condition.is(Tag.INCARNATION, tag.incarnation()).and(Condition.is(Tag.LAST_ACCESS_AT,
                            tag.lastAccessAt())));
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
