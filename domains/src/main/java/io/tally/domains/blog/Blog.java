package io.tally.domains.blog;

import io.tally.core.workload.WorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.util.Optional;
import io.tally.core.demo.DemoLoad;
import java.io.IOException;
import io.tally.core.demo.DemoApi;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.TableSchema;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.Domain;
import io.tally.core.domain.RouteContext;
import io.tally.core.events.EventType;
import io.tally.core.http.Router;
import io.tally.core.users.UserStore;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import java.util.List;

/**
 * The blog (seeds 000/001), declared once: posts and comments of users, the status index of posts, and what the blog
 * counts in the shared stats items. Keys are in {@link BlogKeys}, the entities' attribute names beside each entity.
 */
public final class Blog implements Domain {
    public static final EntityType POST = EntityType.base("Post");
    /** Global uniqueness guard and locator of a post id: post ids are unique across users. */
    public static final EntityType POST_REF = EntityType.base("PostRef");
    public static final EntityType COMMENT = EntityType.base("Comment");

    /** A user's stats: posts not deleted, comments written that still exist. */
    public static final SharedCounter USER_POSTS = SharedCounter.of(Users.USER_STATS, "posts");
    public static final SharedCounter USER_COMMENTS = SharedCounter.of(Users.USER_STATS, "comments");

    /** The global totals: posts by status (shown as {@code "posts": {"created", "updated", "deleted"}}), comments. */
    public static final SharedCounter GLOBAL_POSTS_CREATED = SharedCounter.of(Users.GLOBAL_STATS, "postsCreated")
            .shownAt("posts", "created");
    public static final SharedCounter GLOBAL_POSTS_UPDATED = SharedCounter.of(Users.GLOBAL_STATS, "postsUpdated")
            .shownAt("posts", "updated");
    public static final SharedCounter GLOBAL_POSTS_DELETED = SharedCounter.of(Users.GLOBAL_STATS, "postsDeleted")
            .shownAt("posts", "deleted");
    public static final SharedCounter GLOBAL_COMMENTS = SharedCounter.of(Users.GLOBAL_STATS, "comments");

    /** One per post: a small copy in the status index, with the post's comment count. */
    public static final DerivedType POST_PROJECTION = DerivedType.named("PostProjection")
            .key("POSTREF#<postId> / #PROJECTION#", BlogKeys::postProjection)
            .counters(Projection.COMMENTS)
            .document(Projection.POST_ID, Projection.USER_ID, Projection.TITLE, Projection.STATUS,
                    Projection.CREATED_AT, Projection.UPDATED_AT)
            .indexKeys(TableSchema.STATUS_SHARD, TableSchema.STATUS_POSTED_AT)
            .build();


    /** Attribute names of {@link #POST_PROJECTION}. */
    public static final class Projection {
        public static final String POST_ID = "postId";
        public static final String USER_ID = "userId";
        public static final String TITLE = "title";
        public static final String STATUS = "status";
        public static final String CREATED_AT = "createdAt";
        public static final String UPDATED_AT = "updatedAt";
        /** Counter: the post's existing comments. */
        public static final String COMMENTS = "comments";

        private Projection() {
        }
    }

    @Override
    public String name() {
        return "blog";
    }

    @Override
    public List<String> requires() {
        return List.of(UsersDomain.NAME);
    }

    @Override
    public List<EntityType> entityTypes() {
        return List.of(POST, POST_REF, COMMENT);
    }

    @Override
    public List<DerivedType> derivedTypes() {
        return List.of(POST_PROJECTION);
    }

    @Override
    public List<SharedCounter> sharedCounters() {
        return List.of(USER_POSTS, USER_COMMENTS, GLOBAL_POSTS_CREATED, GLOBAL_POSTS_UPDATED, GLOBAL_POSTS_DELETED,
                GLOBAL_COMMENTS);
    }

    /** Its stores over the table and the routes that use them; routes reach the table only through the stores. */
    @Override
    public void routes(Router router, RouteContext context) {
        UserStore users = new UserStore(context.dynamo(), context.table());
        PostStore posts = new PostStore(context.dynamo(), context.table());
        CommentStore comments = new CommentStore(context.dynamo(), context.table());
        new PostRoutes(context, users, posts).register(router);
        new CommentRoutes(context, posts, comments).register(router);
        new PostProjectionRoutes(context, new PostProjectionStore(context.dynamo(), context.table())).register(router);
    }

    @Override
    public List<Derivation> derivations(ShardSettings shards) {
        return List.of(new PostDerivation(shards.status()), new CommentDerivation());
    }

    /** Posts and comments as {@code /posts} shows them: public data. */
    @Override
    public List<EventType> events() {
        return List.of(
                EventType.publicEvent(PostDerivation.POST_CREATED, PostDerivation.PostCreated.class),
                EventType.publicEvent(PostDerivation.POST_STATUS_CHANGED, PostDerivation.PostStatusChanged.class),
                EventType.publicEvent(CommentDerivation.COMMENT_ADDED, CommentDerivation.CommentChanged.class),
                EventType.publicEvent(CommentDerivation.COMMENT_DELETED, CommentDerivation.CommentChanged.class));
    }

    @Override
    public void demoSeed(DemoApi api) throws IOException, InterruptedException {
        BlogDemo.seed(api);
    }

    @Override
    public Optional<DemoLoad> demoLoad() {
        return Optional.of(new BlogDemo.Load());
    }

    @Override
    public Optional<WorkloadPart> workload(WorkloadContext context) {
        return Optional.of(new BlogWorkload(context));
    }

    @Override
    public List<io.tally.core.domain.DashboardSection> dashboard() {
        return BlogDashboard.SECTIONS;
    }
}
