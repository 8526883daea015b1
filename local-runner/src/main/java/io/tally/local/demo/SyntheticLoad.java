package io.tally.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.blog.Comment;
import io.tally.core.blog.Post;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A steady stream of random blog writes through the writer API, at a bounded rate: new users, posts, comments,
 * post edits and deletes, in proportions that keep every derived counter moving. One write at a time, on one
 * thread; a write that is refused or fails counts as failed and the load goes on.
 */
public final class SyntheticLoad implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SyntheticLoad.class);
    /** Lists of known users and posts stop growing here, so a long run holds a bounded amount of memory. */
    private static final int MAX_KNOWN = 10_000;

    private record PostRef(String userId, String postId) {
    }

    private final ApiClient api;
    private final double writesPerSecond;
    private final List<String> users = new ArrayList<>();
    private final List<PostRef> posts = new ArrayList<>();
    /** Paths of downloads the load made, for a refund now and then. */
    private final List<String> downloads = new ArrayList<>();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private ScheduledExecutorService executor;

    /**
     * @param base           the writer API
     * @param knownUsers     users that exist already, e.g. the seed's
     * @param writesPerSecond the rate, 1..1000
     */
    public SyntheticLoad(URI base, List<String> knownUsers, double writesPerSecond) {
        if (!(writesPerSecond >= 1 && writesPerSecond <= 1000)) {
            throw new IllegalArgumentException("writesPerSecond must be 1..1000, not " + writesPerSecond);
        }
        this.api = new ApiClient(base);
        this.writesPerSecond = writesPerSecond;
        this.users.addAll(knownUsers);
    }

    /** Starts writing in the background until {@link #close}. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("started before");
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tally-demo-load");
            thread.setDaemon(true);
            return thread;
        });
        long periodMicros = Math.round(1_000_000 / writesPerSecond);
        executor.scheduleAtFixedRate(this::writeOnce, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    /** Writes answered with 2xx so far. */
    public long writes() {
        return writes.get();
    }

    /** Writes refused or failed so far. */
    public long failed() {
        return failed.get();
    }

    /** One random write; never throws, so that the schedule goes on. */
    void writeOnce() {
        try {
            ApiClient.Reply reply = randomWrite();
            if (reply.ok()) {
                writes.incrementAndGet();
            } else {
                failed.incrementAndGet();
                LOG.debug("demo write refused: {} {}", reply.status(), reply.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            failed.incrementAndGet();
            LOG.debug("demo write failed", e);
        }
    }

    private ApiClient.Reply randomWrite() throws IOException, InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (random.nextInt(4) == 0) {
            return download(random);
        }
        double dice = random.nextDouble();
        if (users.size() < 3 || dice < 0.08) {
            long n = writes.get() + failed.get();
            ApiClient.Reply reply = api.post("/users", body("name", "Demo user " + n, "email", "demo" + n + "@example.com"));
            remember(reply, "userId", users);
            return reply;
        }
        String user = users.get(random.nextInt(users.size()));
        if (posts.isEmpty() || dice < 0.35) {
            ApiClient.Reply reply = api.post("/users/" + user + "/posts",
                    body("title", "Post " + random.nextInt(1_000_000), "body", "Written by the demo load."));
            if (reply.ok() && posts.size() < MAX_KNOWN) {
                posts.add(new PostRef(user, reply.body().path("postId").asText()));
            }
            return reply;
        }
        int index = random.nextInt(posts.size());
        PostRef post = posts.get(index);
        String path = "/users/" + post.userId() + "/posts/" + post.postId();
        if (dice < 0.82) {
            return api.post(path + "/comments", body("authorId", user, "text", "Comment " + random.nextInt(1_000_000)));
        }
        if (dice < 0.95) {
            return api.patch(path, body("title", "Edited " + random.nextInt(1_000_000)));
        }
        // A deleted post takes no more comments or edits: forget it.
        posts.set(index, posts.get(posts.size() - 1));
        posts.remove(posts.size() - 1);
        return api.delete(path);
    }

    /**
     * A download of one of the demo's songs, skewed: each song takes about half the downloads of the one before it, so
     * the first two take three quarters. Now and then a refund of a recent download instead.
     */
    private ApiClient.Reply download(ThreadLocalRandom random) throws IOException, InterruptedException {
        if (!downloads.isEmpty() && random.nextInt(20) == 0) {
            return api.delete(downloads.remove(downloads.size() - 1));
        }
        int song = 0;
        while (song < DemoLoader.SONGS.size() - 1 && random.nextBoolean()) {
            song++;
        }
        String path = "/songs/" + DemoLoader.SONGS.get(song) + "/downloads";
        ApiClient.Reply reply = api.post(path, body());
        JsonNode id = reply.body().path("downloadId");
        if (reply.ok() && id.isTextual() && downloads.size() < MAX_KNOWN) {
            downloads.add(path + "/" + id.asText());
        }
        return reply;
    }

    private static void remember(ApiClient.Reply reply, String field, List<String> into) {
        JsonNode id = reply.body().path(field);
        if (reply.ok() && id.isTextual() && into.size() < MAX_KNOWN) {
            into.add(id.asText());
        }
    }

    private static Map<String, Object> body(Object... pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    /** Stops writing; the write in flight finishes. Idempotent. */
    @Override
    public synchronized void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
