package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Access;
import io.tally.core.view.Bucket;
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
}
