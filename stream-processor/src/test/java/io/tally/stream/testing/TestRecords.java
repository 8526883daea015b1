package io.tally.stream.testing;

import io.tally.core.Key;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.stream.engine.SourceRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Writes base items to an imaginary table and returns the stream records of one shard those writes produce, in
 * order; remembers the table so that tests can recompute derived data from it.
 */
public final class TestRecords {
    public static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");

    private final String shardId;
    /** Starts below a power of ten, so that sequence numbers of different lengths meet in one batch. */
    private long sequence = 995;
    private final Map<Key, Map<String, AttributeValue>> table = new LinkedHashMap<>();
    private final List<SourceRecord> records = new ArrayList<>();

    public TestRecords(String shardId) {
        this.shardId = shardId;
    }

    public SourceRecord put(Map<String, AttributeValue> item) {
        Key key = Key.of(item);
        Map<String, AttributeValue> old = table.put(key, Map.copyOf(item));
        return add(old == null ? "INSERT" : "MODIFY", key, old, item);
    }

    public SourceRecord delete(Map<String, AttributeValue> item) {
        Key key = Key.of(item);
        Map<String, AttributeValue> old = table.remove(key);
        if (old == null) {
            throw new IllegalStateException("no item at " + key);
        }
        return add("REMOVE", key, old, null);
    }

    /** A record whose images are given as they are (also garbage), without touching the table. */
    public SourceRecord raw(String eventName, Map<String, AttributeValue> keys, Map<String, AttributeValue> oldImage,
                            Map<String, AttributeValue> newImage) {
        return add(eventName, null, oldImage, newImage, keys);
    }

    private SourceRecord add(String eventName, Key key, Map<String, AttributeValue> oldImage,
                             Map<String, AttributeValue> newImage) {
        return add(eventName, key, oldImage, newImage, key.toAttributeMap());
    }

    private SourceRecord add(String eventName, Key key, Map<String, AttributeValue> oldImage,
                             Map<String, AttributeValue> newImage, Map<String, AttributeValue> keys) {
        long number = sequence++;
        SourceRecord record = new SourceRecord("ev-" + number, eventName, shardId, Long.toString(number),
                T0.plusSeconds(records.size()), keys, oldImage, newImage);
        records.add(record);
        return record;
    }

    public List<SourceRecord> records() {
        return List.copyOf(records);
    }

    public List<Map<String, AttributeValue>> table() {
        return List.copyOf(table.values());
    }

    public static Post post(String userId, String postId, String title, PostStatus status) {
        return new Post(postId, userId, title, "body of " + postId, status, T0, T0, 1);
    }

    public static Comment comment(String commentId, Post post, String authorId) {
        return new Comment(commentId, post.postId(), post.userId(), post.createdAt(), authorId, "text " + commentId,
                T0.plusSeconds(60));
    }
}
