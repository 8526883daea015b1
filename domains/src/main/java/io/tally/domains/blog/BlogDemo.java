package io.tally.domains.blog;

import static io.tally.core.demo.DemoApi.body;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The blog's demo data: a few posts and comments of the seed's users, then random users, posts and comments. */
final class BlogDemo {
    private BlogDemo() {
    }

    /** Four posts (one edited, one deleted) and four comments, by user-8790, user-1001 and user-1002. */
    static void seed(DemoApi api) throws IOException, InterruptedException {
        api.write("POST", "/users/user-8790/posts", body("postId", "dynamodb-101", "title", "Single-table design",
                "body", "One table, many entities."));
        api.write("POST", "/users/user-8790/posts", body("postId", "streams-102", "title", "DynamoDB Streams",
                "body", "Every change, in order, per item."));
        api.write("POST", "/users/user-1001/posts", body("postId", "gsi-overloading", "title", "Overloading a GSI",
                "body", "One index, many access patterns."));
        api.write("POST", "/users/user-1002/posts", body("postId", "draft-1", "title", "A draft",
                "body", "Soon deleted."));
        api.write("PATCH", "/users/user-8790/posts/dynamodb-101", body("title", "Single-table design, part 1"));
        api.write("DELETE", "/users/user-1002/posts/draft-1", null);

        api.write("POST", "/users/user-8790/posts/dynamodb-101/comments", body("authorId", "user-1001",
                "text", "First!"));
        api.write("POST", "/users/user-8790/posts/dynamodb-101/comments", body("authorId", "user-1002",
                "text", "What about transactions?"));
        api.write("POST", "/users/user-8790/posts/streams-102/comments", body("authorId", "user-1001",
                "text", "Exactly once?"));
        api.write("POST", "/users/user-1001/posts/gsi-overloading/comments", body("authorId", "user-8790",
                "text", "Nice trick."));
    }

    /**
     * New users, posts, comments, post edits and deletes, in proportions that keep every blog counter moving; it
     * remembers at most {@link #MAX_KNOWN} users and posts.
     */
    static final class Load implements DemoLoad {
        private static final int MAX_KNOWN = 10_000;

        private record PostRef(String userId, String postId) {
        }

        private final List<String> users = new ArrayList<>(List.of("user-8790", "user-1001", "user-1002"));
        private final List<PostRef> posts = new ArrayList<>();
        private long writes;

        @Override
        public int weight() {
            return 3;
        }

        @Override
        public DemoApi.Reply write(DemoApi api, Random random) throws IOException, InterruptedException {
            long n = writes++;
            double dice = random.nextDouble();
            if (dice < 0.08) {
                DemoApi.Reply reply = api.send("POST", "/users",
                        body("name", "Demo user " + n, "email", "demo" + n + "@example.com"));
                JsonNode id = reply.body().path("userId");
                if (reply.ok() && id.isTextual() && users.size() < MAX_KNOWN) {
                    users.add(id.asText());
                }
                return reply;
            }
            String user = users.get(random.nextInt(users.size()));
            if (posts.isEmpty() || dice < 0.35) {
                DemoApi.Reply reply = api.send("POST", "/users/" + user + "/posts",
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
                return api.send("POST", path + "/comments",
                        body("authorId", user, "text", "Comment " + random.nextInt(1_000_000)));
            }
            if (dice < 0.95) {
                return api.send("PATCH", path, body("title", "Edited " + random.nextInt(1_000_000)));
            }
            // A deleted post takes no more comments or edits: forget it.
            posts.set(index, posts.get(posts.size() - 1));
            posts.remove(posts.size() - 1);
            return api.send("DELETE", path, null);
        }
    }
}
