package io.tally.domains.blog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.http.Json;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class BlogJsonTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-23T08:00:00Z");

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Test
    void post_isTheContractsFieldsInOrder() {
        Post post = new Post("p1", "u1", "Title", "Body", PostStatus.UPDATED, T1, T2, 2);
        assertThat(Json.tree(post).toString()).isEqualTo("{\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"Title\","
                + "\"body\":\"Body\",\"status\":\"updated\",\"createdAt\":\"2019-01-22T10:28:49.930Z\","
                + "\"updatedAt\":\"2019-01-23T08:00:00.000Z\",\"version\":2}");
    }

    @Test
    void comment_leavesOutWhereItsPostIs() {
        Comment comment = new Comment("c1", "p1", "u1", T1, "u2", "Nice", T2);
        assertThat(Json.tree(comment).toString()).isEqualTo("{\"commentId\":\"c1\",\"postId\":\"p1\","
                + "\"authorId\":\"u2\",\"text\":\"Nice\",\"createdAt\":\"2019-01-23T08:00:00.000Z\"}");
    }

    @Test
    void projection_withoutComments_readsZeroComments() {
        var json = Json.tree(BlogFigures.PROJECTION.read(Map.of("entityType", s("PostProjection"), "postId", s("p1"),
                "userId", s("u1"), "title", s("T"), "status", s("created"), "createdAt", s("2026-11-22T10:00:00.123Z"),
                "updatedAt", s("2026-11-22T10:00:00.123Z"))));
        assertThat(json.toString()).isEqualTo("{\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"T\",\"status\":\"created\","
                + "\"createdAt\":\"2026-11-22T10:00:00.123Z\",\"updatedAt\":\"2026-11-22T10:00:00.123Z\",\"comments\":0}");
    }

    @Test
    void projection_withComments_readsThem() {
        var json = Json.tree(BlogFigures.PROJECTION.read(Map.of("entityType", s("PostProjection"), "postId", s("p1"),
                "userId", s("u1"), "title", s("T"), "status", s("deleted"), "createdAt", s("2026-11-22T10:00:00.123Z"),
                "updatedAt", s("2026-11-23T10:00:00.000Z"), "comments", AttributeValue.fromN("3"))));
        assertThat(json.toString()).isEqualTo("{\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"T\",\"status\":\"deleted\","
                + "\"createdAt\":\"2026-11-22T10:00:00.123Z\",\"updatedAt\":\"2026-11-23T10:00:00.000Z\",\"comments\":3}");
    }

    @Test
    void projection_itemOfAnotherKind_isMalformed() {
        assertThatThrownBy(() -> BlogFigures.PROJECTION.read(Map.of("entityType", s("PostRef"))))
                .isInstanceOf(MalformedItemException.class);
    }

    @Test
    void postStats_noProjectionYet_isZeroComments() {
        assertThat(Json.tree(PostProjectionRoutes.PostStats.of("p1", null)).toString())
                .isEqualTo("{\"postId\":\"p1\",\"comments\":0}");
        assertThat(Json.tree(PostProjectionRoutes.PostStats.of("p1", Map.of("entityType", s("PostProjection"), "comments",
                AttributeValue.fromN("4")))).toString()).isEqualTo("{\"postId\":\"p1\",\"comments\":4}");
    }

    @Test
    void postStats_itemOfAnotherKind_isMalformed() {
        assertThatThrownBy(() -> PostProjectionRoutes.PostStats.of("p1", Map.of("entityType", s("PostRef"))))
                .isInstanceOf(MalformedItemException.class);
    }
}
