package io.tally.writer.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.catalogue.Catalogue;
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
    void globalStats_parts_renderInTurnFromCountersSummedOverEveryShard() {
        GlobalStatsFields first = (json, total) -> json.put("all", total.applyAsLong("users"));
        var json = StatsJson.globalStats(List.of(
                Map.of("entityType", s("GlobalStats"), "users", n(2), "items", n(5)),
                Map.of("entityType", s("GlobalStats"), "users", n(3), "completed", n(7))),
                List.of(first, GlobalStatsFields.flat(Catalogue.SCHEMA)));
        assertThat(json.toString()).isEqualTo("{\"all\":5,\"items\":5,\"completed\":7}");
    }

    @Test
    void globalStats_shardOfAnotherKind_isMalformed() {
        assertThatThrownBy(() -> StatsJson.globalStats(List.of(Map.of("entityType", s("UserStats"))), List.of()))
                .isInstanceOf(MalformedItemException.class);
    }
}
