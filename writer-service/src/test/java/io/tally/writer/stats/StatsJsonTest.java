package io.tally.writer.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class StatsJsonTest {
    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Test
    void userStats_noItem_isAllZerosInContractOrder() {
        assertThat(StatsJson.userStats("u1", null).toString()).isEqualTo("{\"userId\":\"u1\",\"posts\":0,\"comments\":0,"
                + "\"completed\":0,\"correctGuesses\":0,\"liveCompleted\":0,\"assigned\":0,\"inProgress\":0,\"orphaned\":0}");
    }

    @Test
    void userStats_someCounters_readsThemAndZerosTheRest() {
        var json = StatsJson.userStats("u1", Map.of("entityType", s("UserStats"), "posts", n(3), "orphaned", n(1)));
        assertThat(json.get("posts").asLong()).isEqualTo(3);
        assertThat(json.get("orphaned").asLong()).isEqualTo(1);
        assertThat(json.get("comments").asLong()).isZero();
    }

    @Test
    void userStats_itemOfAnotherKind_isMalformed() {
        assertThatThrownBy(() -> StatsJson.userStats("u1", Map.of("entityType", s("User"))))
                .isInstanceOf(MalformedItemException.class);
    }

    @Test
    void globalStats_sumsEveryShardPerCounter() {
        var json = StatsJson.globalStats(List.of(
                Map.of("entityType", s("GlobalStats"), "users", n(2), "postsCreated", n(5), "postsDeleted", n(1)),
                Map.of("entityType", s("GlobalStats"), "users", n(3), "postsUpdated", n(4), "completed", n(7))));
        assertThat(json.toString()).isEqualTo("{\"users\":5,\"posts\":{\"created\":5,\"updated\":4,\"deleted\":1},"
                + "\"comments\":0,\"items\":0,\"completed\":7}");
    }

    @Test
    void globalStats_noShards_isAllZeros() {
        assertThat(StatsJson.globalStats(List.of()).toString()).isEqualTo("{\"users\":0,"
                + "\"posts\":{\"created\":0,\"updated\":0,\"deleted\":0},\"comments\":0,\"items\":0,\"completed\":0}");
    }

    @Test
    void post_projectionWithoutComments_readsZeroComments() {
        var json = StatsJson.post(Map.of("entityType", s("PostProjection"), "postId", s("p1"), "userId", s("u1"),
                "title", s("T"), "status", s("created"), "createdAt", s("2026-11-22T10:00:00.123Z"),
                "updatedAt", s("2026-11-22T10:00:00.123Z")));
        assertThat(json.toString()).isEqualTo("{\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"T\",\"status\":\"created\","
                + "\"createdAt\":\"2026-11-22T10:00:00.123Z\",\"updatedAt\":\"2026-11-22T10:00:00.123Z\",\"comments\":0}");
    }

    @Test
    void selectorItem_withoutTitle_hasNullTitle() {
        var json = StatsJson.selectorItem(Map.of("entityType", s("SelectorEntry"), "itemId", s("i1"), "score", n(70)));
        assertThat(json.toString()).isEqualTo("{\"itemId\":\"i1\",\"title\":null,\"score\":70}");
    }
}
