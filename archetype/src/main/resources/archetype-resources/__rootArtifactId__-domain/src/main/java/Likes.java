package ${package};

import static io.tally.core.domain.EntityResource.exists;

import io.tally.core.EntityType;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.EntityResource;
import io.tally.core.http.Access;
import io.tally.core.http.Fields;
import io.tally.core.users.Users;

/**
 * Likes, declared once: the entity at its path (only the user writes; the user or an admin reads), and its figures as
 * a view. Tally serves the routes, derives the figures exactly once from the table's stream, and checks the
 * declaration when it loads the domain (listed in {@code META-INF/services/io.tally.core.domain.Domain}).
 */
public final class Likes extends DeclaredDomain {
    static final EntityType LIKE = EntityType.base("Like");

    public Likes() {
        super(Declaration.of("likes")
                .requires("users")
                .entityTypes(LIKE)
                .views(LikeFigures.PER_ITEM)
                .resources(EntityResource.at("/users/{userId}/likes/{itemId}", Like.SCHEMA)
                        .putOptionalBody(Access.owner("userId"), "Like an item (201 created, 200 again)", Fields.of(),
                                (ids, body, old, now) -> new Like(ids.get("userId"), ids.get("itemId"),
                                        old.map(Like::likedAt).orElse(now)), exists("userId", Users.USER))
                        .get(Access.ownerOrAdmin("userId"), "A user's like of an item")
                        .delete(Access.owner("userId"), "Take a like back")));
    }
}
