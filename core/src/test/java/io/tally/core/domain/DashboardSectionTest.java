package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Access;
import io.tally.core.view.Bucket;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;
import io.tally.core.view.RankingView;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A dashboard section that names a view: what it reads and how it draws it, from the view's declaration. */
class DashboardSectionTest {
    public record Like(String userId, String postId, Instant at) {
        static final ItemSchema<Like> SCHEMA = ItemSchema.of(Like.class, EntityType.base("DashboardTestLike"),
                like -> new Key("LIKES#" + like.postId(), "USER#" + like.userId())).build();
    }

    public record PostLikes(String postId, long likes) {
    }

    public record TopLiked(String day, List<PostLikes> posts) {
    }

    public record AllTime(List<PostLikes> posts) {
    }

    public record UserPostLikes(String userId, String postId, long likes) {
    }

    public record DayLikes(String postId, String day, long likes) {
    }

    @Test
    void ranking_barsOfTheTopTen_ofTheCurrentBucket_oneARow() {
        RankingView<Like, TopLiked> daily = RankingView.over(Like.SCHEMA, TopLiked.class)
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes)
                .bucket(TopLiked::day, Bucket.DAY, Like::at).read("/stats/likes/top", Access.READ_SIDE, null).build();

        DashboardSection section = DashboardSection.ranking("top-liked", "Most liked, {to}", daily, "#d65c8a");
        assertThat(section.kind()).isEqualTo(DashboardSection.Kind.BARS);
        assertThat(section.path()).isEqualTo("/stats/likes/top?limit=10&day={to}");
        assertThat(section.rows().items()).isEqualTo("posts");
        assertThat(section.rows().value()).isEqualTo("likes");
        assertThat(section.rows().label()).containsExactly("{postId}");
        assertThat(section.rows().figure()).isEqualTo("top-liked.{postId}");

        RankingView<Like, AllTime> allTime = RankingView.over(Like.SCHEMA, AllTime.class)
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes)
                .read("/stats/likes/all", Access.READ_SIDE, null).build();
        assertThat(DashboardSection.ranking("liked", "Most liked", allTime, "#d65c8a").path())
                .isEqualTo("/stats/likes/all?limit=10");
        RankingView<Like, AllTime> unread = RankingView.over(Like.SCHEMA, AllTime.class)
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes).build();
        assertThatThrownBy(() -> DashboardSection.ranking("liked", "Most liked", unread, "#d65c8a"))
                .hasMessageContaining("has no read route");
        RankingView<Like, AllTime> own = RankingView.over(Like.SCHEMA, AllTime.class)
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes)
                .read("/stats/likes/mine", Access.ADMIN, null).build();
        assertThatThrownBy(() -> DashboardSection.ranking("liked", "Most liked", own, "#d65c8a"))
                .hasMessageContaining("public read-side routes only");
    }

    @Test
    void counts_barsOfOneFigure_oneAGroupThePageKnows() {
        CounterView<Like, PostLikes> perPost = CounterView.over(Like.SCHEMA, PostLikes.class)
                .key("LIKES#<postId> / #STATS#", id -> new Key("LIKES#" + id, "#STATS#"))
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes)
                .read("/stats/likes/{postId}", Access.READ_SIDE, Existence.zeros(), "A post's likes").build();
        DashboardSection.Each posts = DashboardSection.Each.of("postId", "posts", "p1").andSeenInFeeds();

        DashboardSection section = DashboardSection.counts("likes", "Likes", perPost, PostLikes::likes, posts,
                "{postId}", "#d65c8a");
        assertThat(section.kind()).isEqualTo(DashboardSection.Kind.BARS);
        assertThat(section.path()).isEqualTo("/stats/likes/{postId}");
        assertThat(section.route()).isEqualTo("GET /stats/likes/{postId}");
        assertThat(section.each()).isEqualTo(posts);
        assertThat(section.rows().items()).isNull();
        assertThat(section.rows().value()).isEqualTo("likes");
        assertThat(section.rows().label()).containsExactly("{postId}");
        assertThat(section.rows().figure()).isEqualTo("likes.{postId}.likes");
        assertThat(section.color()).isEqualTo("#d65c8a");

        assertThatThrownBy(() -> DashboardSection.counts("likes", "Likes", perPost, PostLikes::postId, posts,
                "{postId}", "#d65c8a")).hasMessageContaining("postId of view").hasMessageContaining("is not a number");
        assertThatThrownBy(() -> DashboardSection.counts("likes", "Likes", perPost, PostLikes::likes,
                DashboardSection.Each.of("userId", "users"), "{postId}", "#d65c8a"))
                .hasMessage("likes: its values fill {postId}, not {userId}");
        CounterView<Like, PostLikes> unread = CounterView.over(Like.SCHEMA, PostLikes.class)
                .key("LIKES#<postId> / #STATS#", id -> new Key("LIKES#" + id, "#STATS#"))
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes).build();
        assertThatThrownBy(() -> DashboardSection.counts("likes", "Likes", unread, PostLikes::likes, posts,
                "{postId}", "#d65c8a")).hasMessageContaining("has no read route");
        CounterView<Like, PostLikes> own = CounterView.over(Like.SCHEMA, PostLikes.class)
                .key("LIKES#<postId> / #STATS#", id -> new Key("LIKES#" + id, "#STATS#"))
                .groupBy(PostLikes::postId, Like::postId).count(PostLikes::likes)
                .read("/stats/likes/{postId}", Access.ADMIN, Existence.zeros(), "A post's likes").build();
        assertThatThrownBy(() -> DashboardSection.counts("likes", "Likes", own, PostLikes::likes, posts,
                "{postId}", "#d65c8a")).hasMessageContaining("public read-side routes only");
        CounterView<Like, UserPostLikes> twoFields = CounterView.over(Like.SCHEMA, UserPostLikes.class)
                .key("LIKES#<userId>#<postId> / #STATS#", id -> new Key("LIKES#" + id, "#STATS#"))
                .groupBy(UserPostLikes::userId, Like::userId).groupBy(UserPostLikes::postId, Like::postId)
                .count(UserPostLikes::likes)
                .read("/stats/likes/{userId}/{postId}", Access.READ_SIDE, Existence.zeros(), "Likes").build();
        assertThatThrownBy(() -> DashboardSection.counts("likes", "Likes", twoFields, UserPostLikes::likes,
                DashboardSection.Each.of("userId", "users"), "{postId}", "#d65c8a"))
                .hasMessageContaining("one group and no bucket");
        CounterView<Like, DayLikes> perDay = CounterView.over(Like.SCHEMA, DayLikes.class)
                .key("LIKES#<postId> / DAY#<day>", (id, day) -> new Key("LIKES#" + id, "DAY#" + day))
                .groupBy(DayLikes::postId, Like::postId).bucket(DayLikes::day, Bucket.DAY, Like::at)
                .count(DayLikes::likes)
                .read("/stats/likes/{postId}/days", Access.READ_SIDE, Existence.zeros(), "Likes a day").build();
        assertThatThrownBy(() -> DashboardSection.counts("likes", "Likes", perDay, DayLikes::likes, posts,
                "{postId}", "#d65c8a")).hasMessageContaining("one group and no bucket");
    }
}
