package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.SharedCounter;
import io.tally.core.http.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** How the shared items' read side renders the counters the domains declare: in order, at their paths, summed. */
class SharedStatsRenderTest {
    private static final SharedCounter USERS = SharedCounter.of(Users.GLOBAL_STATS, "users");
    private static final SharedCounter CREATED = SharedCounter.of(Users.GLOBAL_STATS, "postsCreated")
            .shownAt("posts", "created");
    private static final SharedCounter DELETED = SharedCounter.of(Users.GLOBAL_STATS, "postsDeleted")
            .shownAt("posts", "deleted");
    private static final SharedCounter ITEMS = SharedCounter.of(Users.GLOBAL_STATS, "items");

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    @Test
    void render_countersInOrder_nestedWhereTheirFirstCounterStands_summedOverTheSlots() {
        var json = Json.object();
        StatsRoutes.render(json, List.of(USERS, CREATED, DELETED, ITEMS), List.of(
                Map.of("users", n(2), "postsCreated", n(1)),
                Map.of("users", n(3), "postsDeleted", n(4))));

        assertThat(json.toString()).isEqualTo("{\"users\":5,\"posts\":{\"created\":1,\"deleted\":4},\"items\":0}");
    }

    @Test
    void render_noItems_isAllZeros() {
        var json = Json.object();
        StatsRoutes.render(json, List.of(USERS, ITEMS), List.of());

        assertThat(json.toString()).isEqualTo("{\"users\":0,\"items\":0}");
    }
}
