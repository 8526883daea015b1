package io.tally.domains.blog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The blog's items, attribute by attribute: what the table holds must not change with the way they are mapped. */
class BlogItemsTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-23T08:00:00Z");

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Test
    void post_everyAttribute() {
        Post post = new Post("p1", "u1", "Title", "Body", PostStatus.UPDATED, T1, T2, 2);
        assertThat(post.toItem()).isEqualTo(Map.ofEntries(Map.entry("pk", s("USER#u1")),
                Map.entry("sk", s("POST#p1#2019-01-22T10:28:49.930Z")), Map.entry("entityType", s("Post")),
                Map.entry("postedAt", s("2019-01-22T10:28:49.930Z#p1")), Map.entry("postId", s("p1")),
                Map.entry("userId", s("u1")), Map.entry("title", s("Title")), Map.entry("body", s("Body")),
                Map.entry("status", s("updated")), Map.entry("createdAt", s("2019-01-22T10:28:49.930Z")),
                Map.entry("updatedAt", s("2019-01-23T08:00:00.000Z")), Map.entry("version", AttributeValue.fromN("2"))));
    }

    @Test
    void post_unknownStatus_isMalformed() {
        Map<String, AttributeValue> item = new HashMap<>(new Post("p1", "u1", "T", "B", PostStatus.CREATED, T1, T1, 1)
                .toItem());
        item.put("status", s("archived"));
        assertThatThrownBy(() -> Post.fromItem(item)).isInstanceOf(MalformedItemException.class)
                .hasMessageContaining("archived");
    }

    @Test
    void postRef_everyAttribute() {
        assertThat(new PostRef("p1", "u1", T1).toItem()).isEqualTo(Map.of("pk", s("POSTREF#p1"), "sk", s("#POSTREF#"),
                "entityType", s("PostRef"), "postId", s("p1"), "userId", s("u1"),
                "createdAt", s("2019-01-22T10:28:49.930Z")));
    }

    @Test
    void comment_everyAttribute() {
        assertThat(new Comment("c1", "p1", "u1", T1, "u2", "Nice", T2).toItem()).isEqualTo(Map.of(
                "pk", s("POST#p1#2019-01-22T10:28:49.930Z"), "sk", s("COMMENT#c1#2019-01-23T08:00:00.000Z"),
                "entityType", s("Comment"), "commentId", s("c1"), "postId", s("p1"), "postUserId", s("u1"),
                "postCreatedAt", s("2019-01-22T10:28:49.930Z"), "authorId", s("u2"), "text", s("Nice"),
                "createdAt", s("2019-01-23T08:00:00.000Z")));
    }
}
