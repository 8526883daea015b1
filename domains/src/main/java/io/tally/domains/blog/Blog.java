package io.tally.domains.blog;

import static io.tally.core.derive.Announcement.created;
import static io.tally.core.derive.Announcement.removed;
import static io.tally.core.domain.DashboardSection.Figure.bar;
import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.SharedCounter;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.users.UserStore;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import java.util.List;

/**
 * The blog (seeds 000/001), declared once: posts and comments of users, the status index of posts, and what the blog
 * counts in the shared stats items; the index's copies, with their comments, and the counts are views
 * ({@link BlogFigures}). Keys are in {@link BlogKeys}, the entities' attribute names beside each entity.
 */
public final class Blog extends DeclaredDomain {
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
            .indexKeys(BlogKeys.STATUS_SHARD, BlogKeys.STATUS_POSTED_AT)
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

    /** The blog's part of the dashboard: its totals, and the global totals' posts by status as bars. */
    private static final List<DashboardSection> DASHBOARD = List.of(
            DashboardSection.totals("/stats/global",
                    tile("Posts (not deleted)", "global.posts.live", "posts.created", "posts.updated"),
                    tile("Comments", "global.comments", "comments")),
            DashboardSection.bars("posts", "Posts by status", "/stats/global",
                    bar("created", "global.posts.created", "posts.created", "#2f6fdf"),
                    bar("updated", "global.posts.updated", "posts.updated", "#13a383"),
                    bar("deleted", "global.posts.deleted", "posts.deleted", "#9aa5b1")));

    /** Posts and comments as {@code /posts} shows them are public data, and so are the events about them. */
    public Blog() {
        super(Declaration.of("blog")
                .requires(UsersDomain.NAME)
                .entityTypes(POST, POST_REF, COMMENT)
                .keyPatterns(POST, "USER#<userId> / POST#<postId>#<createdAt>")
                .keyPatterns(POST_REF, "POSTREF#<postId> / #POSTREF#")
                .keyPatterns(COMMENT, "POST#<postId>#<postCreatedAt> / COMMENT#<commentId>#<createdAt>")
                .indexes(BlogKeys.POSTS_BY_TIME, BlogKeys.POSTS_BY_STATUS)
                .shardSettings(BlogKeys.STATUS_SHARDS)
                .views(BlogFigures.PROJECTION, BlogFigures.POSTS, BlogFigures.COMMENTS)
                .sharedCounters(USER_POSTS, USER_COMMENTS, GLOBAL_POSTS_CREATED, GLOBAL_POSTS_UPDATED,
                        GLOBAL_POSTS_DELETED, GLOBAL_COMMENTS)
                .announces(BlogEvents.POST_CREATED, Post.SCHEMA, Post::postId, created(BlogEvents.PostCreated::of))
                .announces(BlogEvents.POST_STATUS_CHANGED, Post.SCHEMA, Post::postId,
                        BlogEvents.PostStatusChanged::of)
                .announces(BlogEvents.COMMENT_ADDED, Comment.SCHEMA, Comment::commentId,
                        created(BlogEvents.CommentChanged::added))
                .announces(BlogEvents.COMMENT_DELETED, Comment.SCHEMA, Comment::commentId,
                        removed(BlogEvents.CommentChanged::deleted))
                .dashboard(DASHBOARD)
                .demoSeed(BlogDemo::seed)
                .demoLoad(BlogDemo.Load::new)
                .workload(BlogWorkload::new));
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
}
