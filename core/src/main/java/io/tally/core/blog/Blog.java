package io.tally.core.blog;

import io.tally.core.DerivedType;
import io.tally.core.DomainSchema;
import io.tally.core.EntityType;
import io.tally.core.TableSchema;
import java.util.List;

/**
 * The blog's declarations (seeds 000/001): its entity types, its derived type, and what it counts in the shared
 * stats items. Keys are in {@link BlogKeys}, the entities' attribute names beside each entity.
 */
public final class Blog {
    public static final EntityType USER = EntityType.base("User");
    public static final EntityType POST = EntityType.base("Post");
    /** Global uniqueness guard and locator of a post id: post ids are unique across users. */
    public static final EntityType POST_REF = EntityType.base("PostRef");
    public static final EntityType COMMENT = EntityType.base("Comment");

    /** A user's stats: posts not deleted, comments written that still exist. */
    public static final String USER_POSTS = "posts";
    public static final String USER_COMMENTS = "comments";

    public static final String GLOBAL_USERS = "users";
    public static final String GLOBAL_POSTS_CREATED = "postsCreated";
    public static final String GLOBAL_POSTS_UPDATED = "postsUpdated";
    public static final String GLOBAL_POSTS_DELETED = "postsDeleted";
    public static final String GLOBAL_COMMENTS = "comments";

    /** One per post: a small copy in the status index, with the post's comment count. */
    public static final DerivedType POST_PROJECTION = DerivedType.named("PostProjection")
            .key("POSTREF#<postId> / #PROJECTION#", BlogKeys::postProjection)
            .counters(Projection.COMMENTS)
            .document(Projection.POST_ID, Projection.USER_ID, Projection.TITLE, Projection.STATUS,
                    Projection.CREATED_AT, Projection.UPDATED_AT)
            .indexKeys(TableSchema.STATUS_SHARD, TableSchema.STATUS_POSTED_AT)
            .build();

    public static final DomainSchema SCHEMA = new DomainSchema("blog",
            List.of(USER, POST, POST_REF, COMMENT),
            List.of(POST_PROJECTION),
            List.of(USER_POSTS, USER_COMMENTS),
            List.of(GLOBAL_USERS, GLOBAL_POSTS_CREATED, GLOBAL_POSTS_UPDATED, GLOBAL_POSTS_DELETED, GLOBAL_COMMENTS));

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

    private Blog() {
    }
}
