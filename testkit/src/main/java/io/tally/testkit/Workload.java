package io.tally.testkit;

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
import java.util.function.Consumer;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A random but valid sequence of base-item writes of the blog and the learning catalogue, built with core's mappers
 * (the items the writer service would write), plus an occasional poison item. The same seed gives the same writes.
 * Users and posts can be picked with a Zipf skew, as hot keys are.
 *
 * <p>The writes go straight to a table (the tests), or to a sink: {@link #writes(long, double, int)} collects them,
 * so that the benchmark can send them in parallel (per-item order kept) and pace them.
 */
public final class Workload {
    private final Consumer<Write> out;
    private final Random random;
    private final Zipf zipf;
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
    private final PoisonWorkload poisons;
    private long writes;
    /** The parts asked for: {@link #withOrganisations}, {@link #withSongs}, {@link #withFavourites}. */
    private OrgWorkload orgs;
    private SongWorkload songs;
    private FavWorkload favourites;

    /**
     * @param skew   0 for uniform picks, about 1.1 for a Zipf skew over users and posts
     * @param poison whether to write an unreadable item now and then
     */
    public Workload(DynamoDbClient dynamo, String table, long seed, double skew, boolean poison) {
        this(write -> send(dynamo, table, write), seed, skew, poison);
    }

    /**
     * @param out    receives each write, in order
     * @param skew   0 for uniform picks, about 1.1 for a Zipf skew over users and posts
     * @param poison whether to write an unreadable item now and then
     */
    public Workload(Consumer<Write> out, long seed, double skew, boolean poison) {
        this.out = out;
        this.random = new Random(seed);
        this.zipf = new Zipf(random, skew);
        this.poisons = new PoisonWorkload(random, this::put, this::delete, () -> nextId("x"),
                () -> postIds.isEmpty() ? null : posts.get(pick(postIds)).toItem(), zipf::index);
        this.poison = poison;
    }

    /**
     * Adds organisations, teams, employees and memberships to the mix (about a third of the steps), with deletes of
     * teams and employees whose memberships only a stream processor with the membership cascade removes. Off by
     * default, so that a seed keeps giving the same blog and catalogue writes to the tests and the benchmark that
     * predate it.
     */
    public Workload withOrganisations() {
        this.orgs = new OrgWorkload(random, this::put, this::delete, () -> nextId("o"));
        return this;
    }

    /**
     * Adds songs, downloads over several months and days, and refunds to the mix (about a quarter of the steps),
     * songs picked with the workload's skew. Off by default, like {@link #withOrganisations}.
     */
    public Workload withSongs() {
        this.songs = new SongWorkload(random, this::put, this::delete, () -> nextId("s"), zipf::index);
        return this;
    }

    /** {@code count} steps of the songs part alone (after {@link #withSongs}). */
    public void runSongs(int count) {
        runPart(songs, count);
    }

    /** {@code count} steps of the organisations part alone (after {@link #withOrganisations}). */
    public void runOrganisations(int count) {
        runPart(orgs, count);
    }

    /** Adds seed 004's favourites, tags and links (about a quarter of the steps; see {@link FavWorkload}). */
    public Workload withFavourites() {
        this.favourites = new FavWorkload(random, this::put, this::delete, () -> nextId("f"));
        return this;
    }

    /** {@code count} steps of the favourites part alone. */
    public void runFavourites(int count) {
        runPart(favourites, count);
    }

    private void runPart(PartWorkload part, int count) {
        for (int i = 0; i < count; i++) {
            now = now.plus(Duration.ofMillis(1 + random.nextInt(1000)));
            part.step(now);
        }
    }

    /** Base-item writes done so far (each is one stream record, transactions one per item written). */
    public long writes() {
        return writes;
    }

    /** At least {@code count} writes (the last step may add one more), without poison. */
    public static List<Write> writes(long seed, double skew, int count) {
        return collect(count, out -> new Workload(out, seed, skew, false), Workload::step);
    }

    /**
     * At least {@code count} writes of the songs part alone (songs, downloads, refunds), without poison: with a skew,
     * a few hot songs take most downloads.
     */
    public static List<Write> songWrites(long seed, double skew, int count) {
        return collect(count, out -> new Workload(out, seed, skew, false).withSongs(), workload -> workload.runSongs(1));
    }

    /**
     * At least {@code count} writes of the favourites part alone, tag-heavy (tags, favourites, and links: about two
     * steps in three add one, mostly to a few hot tags picked with {@code skew}), without poison. A favourite's or tag's links are deleted by
     * the writes before it, as the stream processor's cascade would have: the benchmark records a stream without a
     * processor running.
     */
    public static List<Write> favouriteWrites(long seed, double skew, int count) {
        return collect(count, out -> {
            Workload workload = new Workload(out, seed, skew, false);
            workload.favourites = FavWorkload.unlinkingFirst(workload.random, workload::put, workload::delete,
                    () -> workload.nextId("f"), workload.zipf::index);
            return workload;
        }, workload -> workload.runFavourites(1));
    }

    private static List<Write> collect(int count, Function<Consumer<Write>, Workload> workloads, Consumer<Workload> step) {
        List<Write> out = new ArrayList<>();
        Workload workload = workloads.apply(out::add);
        while (out.size() < count) {
            step.accept(workload);
        }
        return List.copyOf(out);
    }

    private static void send(DynamoDbClient dynamo, String table, Write write) {
        if (write.isDelete()) {
            dynamo.deleteItem(r -> r.tableName(table).key(write.key().toAttributeMap()));
        } else {
            dynamo.putItem(r -> r.tableName(table).item(write.item()));
        }
    }

    public void run(int operations) {
        for (int i = 0; i < operations; i++) {
            step();
        }
    }

    public void step() {
        now = now.plus(Duration.ofMillis(1 + random.nextInt(1000)));
        if (partStep(orgs, 3) || partStep(songs, 4) || partStep(favourites, 4)) {
            return;
        }
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
            poisons.step(now);
        }
    }

    /** A step of the part one time in {@code oneIn}, when it is asked for; no random draw when it is not. */
    private boolean partStep(PartWorkload part, int oneIn) {
        if (part == null || random.nextInt(oneIn) != 0) {
            return false;
        }
        part.step(now);
        return true;
    }

    private String nextId(String prefix) {
        return prefix + (++sequence);
    }

    private void put(Map<String, AttributeValue> item) {
        out.accept(Write.put(item));
        writes++;
    }

    private void delete(io.tally.core.Key key) {
        out.accept(Write.delete(key));
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
        CatalogueItem previous = items.get(itemId);
        // Revisions as the writer stamps them: above the previous one, at least the clock in microseconds.
        CatalogueItem item = new CatalogueItem(itemId, random.nextBoolean() ? "Item " + itemId : null,
                random.nextInt(1000), selectors[random.nextInt(selectors.length)], now,
                CatalogueItem.nextRevision(previous == null ? 0 : previous.revision(), now));
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

    /**
     * Writes one item a stream consumer cannot read: a new post missing its fields, an unknown type, no type at
     * all; or a change of an existing item into or within garbage: a known post overwritten with an unreadable one
     * (a later change of the post writes it readable again), an unreadable item modified.
     */
    public void poisonStep() {
        poisons.step(now);
    }

    private <T> T pick(List<T> values) {
        return values.get(zipf.index(values.size()));
    }

    private <K> K pickKey(Map<K, ?> map) {
        int index = random.nextInt(map.size());
        return map.keySet().stream().skip(index).findFirst().orElseThrow();
    }
}
