package io.tally.domains.blog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class BlogJsonTest {
    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Test
    void projection_withoutComments_readsZeroComments() {
        var json = BlogJson.projection(Map.of("entityType", s("PostProjection"), "postId", s("p1"), "userId", s("u1"),
                "title", s("T"), "status", s("created"), "createdAt", s("2026-11-22T10:00:00.123Z"),
                "updatedAt", s("2026-11-22T10:00:00.123Z")));
        assertThat(json.toString()).isEqualTo("{\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"T\",\"status\":\"created\","
                + "\"createdAt\":\"2026-11-22T10:00:00.123Z\",\"updatedAt\":\"2026-11-22T10:00:00.123Z\",\"comments\":0}");
    }

    @Test
    void postStats_noProjectionYet_isZeroComments() {
        assertThat(BlogJson.postStats("p1", null).toString()).isEqualTo("{\"postId\":\"p1\",\"comments\":0}");
    }

    @Test
    void postStats_itemOfAnotherKind_isMalformed() {
        assertThatThrownBy(() -> BlogJson.postStats("p1", Map.of("entityType", s("PostRef"))))
                .isInstanceOf(MalformedItemException.class);
    }
}
