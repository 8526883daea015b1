package io.tally.stream.testing;

import io.tally.core.Items;
import io.tally.core.blog.Comment;
import io.tally.core.blog.Post;
import io.tally.core.blog.PostRef;
import io.tally.core.blog.PostStatus;
import io.tally.core.blog.User;
import io.tally.core.catalogue.CatalogueItem;
import io.tally.core.catalogue.CatalogueKeys;
import io.tally.core.catalogue.ItemState;
import io.tally.core.catalogue.UserItem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A random but valid sequence of base-item writes of the blog and the learning catalogue, written straight to
 * the table with core's mappers (the items the writer service would write), plus an occasional poison item.
 * The same seed gives the same writes. Users and posts can be picked with a Zipf skew, as hot keys are.
 */
public final class Workload {
    private final DynamoDbClient dynamo;
    private final String table;
    private final Random random;
    private final double skew;
    private final boolean poison;
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private int sequence;

    private final List<String> users = new ArrayList<>();
    private final Map<String, Post> posts = new LinkedHashMap<>();
    private final List<String> postIds = new ArrayList<>();
    private final Map<String, Comment> comments = new LinkedHashMap<>();
    private final List<String> commentIds = new ArrayList<>();
    private final Map<String, CatalogueItem> items = new LinkedHashMap<>();
    private final Map<String, UserItem> userItems = new HashMap<>();
    private long writes;

    /**
     * @param skew   0 for uniform picks, about 1.1 for a Zipf skew over users and posts
     * @param poison whether to write an unreadable item now and then
     */
    public Workload(DynamoDbClient dynamo, String table, long seed, double skew, boolean poison) {
        this.dynamo = dynamo;
        this.table = table;
        this.random = new Random(seed);
        this.skew = skew;
        this.poison = poison;
    }

    /** Base-item writes done so far (each is one stream record, transactions one per item written). */
    public long writes() {
        return writes;
    }

    public void run(int operations) {
        for (int i = 0; i < operations; i++) {
            step();
        }
    }

    public void step() {
        now = now.plus(Duration.ofMillis(1 + random.nextInt(1000)));
        int roll = random.nextInt(100);
        if (users.size() < 2 || roll < 8) {
            createUser();
        } else if (roll < 12) {
            updateUser();
        } else if (roll < 30 || posts.isEmpty()) {
            createPost();
        } else if (roll < 38) {
            changePost(random.nextInt(4) == 0 ? PostStatus.DELETED : PostStatus.UPDATED);
        } else if (roll < 62) {
            addComment();
        } else if (roll < 68) {
            deleteComment();
        } else if (roll < 76 || items.isEmpty()) {
            putItem();
        } else if (roll < 78) {
            deleteItem();
        } else if (roll < 99 || !poison) {
            changeUserItem();
        } else {
            writePoison();
        }
    }

    private String nextId(String prefix) {
        return prefix + (++sequence);
    }

    private void put(Map<String, AttributeValue> item) {
        dynamo.putItem(r -> r.tableName(table).item(item));
        writes++;
    }

    private void delete(io.tally.core.Key key) {
        dynamo.deleteItem(r -> r.tableName(table).key(key.toAttributeMap()));
        writes++;
    }

    private void createUser() {
        String id = nextId("u");
        users.add(id);
        put(new User(id, "User " + id, id + "@example.com", now, now, 1).toItem());
    }

    private void updateUser() {
        String id = pick(users);
        put(new User(id, "Renamed " + sequence, id + "@example.com", now, now, 2).toItem());
    }

    private void createPost() {
        String userId = pick(users);
        String postId = nextId("p");
        Post post = new Post(postId, userId, "Title " + postId, "Body", PostStatus.CREATED, now, now, 1);
        posts.put(postId, post);
        postIds.add(postId);
        put(new PostRef(postId, userId, now).toItem());
        put(post.toItem());
    }

    private void changePost(PostStatus status) {
        Post post = posts.get(pick(postIds));
        if (post.status() == PostStatus.DELETED) {
            return;
        }
        Post changed = new Post(post.postId(), post.userId(), "Edited " + sequence++, post.body(), status,
                post.createdAt(), now, post.version() + 1);
        posts.put(post.postId(), changed);
        put(changed.toItem());
    }

    private void addComment() {
        Post post = posts.get(pick(postIds));
        if (post.status() == PostStatus.DELETED) {
            return;
        }
        String commentId = nextId("c");
        Comment comment = new Comment(commentId, post.postId(), post.userId(), post.createdAt(), pick(users), "Nice", now);
        comments.put(commentId, comment);
        commentIds.add(commentId);
        put(comment.toItem());
    }

    private void deleteComment() {
        if (commentIds.isEmpty()) {
            return;
        }
        String commentId = commentIds.remove(random.nextInt(commentIds.size()));
        delete(comments.remove(commentId).key());
    }

    private void putItem() {
        String itemId = items.isEmpty() || random.nextInt(3) > 0 ? nextId("i") : pickKey(items);
        String[] selectors = {"global-cycle:" + random.nextInt(3), "user-cycle:" + random.nextInt(3), "back-catalogue"};
        CatalogueItem item = new CatalogueItem(itemId, random.nextBoolean() ? "Item " + itemId : null,
                random.nextInt(1000), selectors[random.nextInt(selectors.length)], now);
        items.put(itemId, item);
        put(item.toItem());
    }

    private void deleteItem() {
        String itemId = pickKey(items);
        items.remove(itemId);
        delete(CatalogueKeys.catalogueItem(itemId));
    }

    private void changeUserItem() {
        if (items.isEmpty()) {
            putItem();
            return;
        }
        String userId = pick(users);
        String itemId = pickKey(items);
        String key = userId + "/" + itemId;
        UserItem current = userItems.get(key);
        if (current != null && current.state() == ItemState.COMPLETED) {
            return;
        }
        ItemState state = ItemState.values()[random.nextInt(ItemState.values().length)];
        UserItem next = new UserItem(userId, itemId, state, items.get(itemId).score(),
                random.nextBoolean() ? random.nextInt(101) / 100.0 : null,
                random.nextBoolean() ? random.nextBoolean() : null,
                random.nextBoolean() ? random.nextBoolean() : null, now, now);
        if (current != null && !current.entryKey().equals(next.entryKey())) {
            delete(current.entryKey());
        }
        userItems.put(key, next);
        put(next.toItem());
        put(next.toEntryItem());
    }

    /** Items a stream consumer cannot read: a post missing its fields, an unknown type, no type at all. */
    private void writePoison() {
        String id = nextId("x");
        switch (random.nextInt(3)) {
            case 0 -> put(Map.of("pk", AttributeValue.fromS("USER#" + id), "sk", AttributeValue.fromS("POST#" + id + "#t"),
                    "entityType", AttributeValue.fromS("Post")));
            case 1 -> put(Map.of("pk", AttributeValue.fromS("SONG#" + id), "sk", AttributeValue.fromS("#METADATA#"),
                    "entityType", AttributeValue.fromS("Song")));
            default -> put(Map.of("pk", AttributeValue.fromS("MISC#" + id), "sk", AttributeValue.fromS("x")));
        }
    }

    private <T> T pick(List<T> values) {
        return values.get(index(values.size()));
    }

    private <K> K pickKey(Map<K, ?> map) {
        int index = random.nextInt(map.size());
        return map.keySet().stream().skip(index).findFirst().orElseThrow();
    }

    /** Uniform, or Zipf-distributed over the list's order (early entries hot) by inverse transform. */
    private int index(int size) {
        if (skew <= 0 || size == 1) {
            return random.nextInt(size);
        }
        double norm = 0;
        for (int i = 1; i <= size; i++) {
            norm += 1 / Math.pow(i, skew);
        }
        double target = random.nextDouble() * norm;
        double sum = 0;
        for (int i = 1; i <= size; i++) {
            sum += 1 / Math.pow(i, skew);
            if (sum >= target) {
                return i - 1;
            }
        }
        return size - 1;
    }
}
