package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.SharedCounter;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The shape of {@code GET /stats/global} and {@code GET /stats/users/{userId}} with the seed domains, as DOMAIN.md gives it. */
class SeedGlobalStatsShapeTest {
    private static final DomainRegistry REGISTRY = DomainRegistry.load();

    /** Every declared counter of the type, its value the length of its name. */
    private static Map<String, AttributeValue> lengths(List<SharedCounter> counters) {
        Map<String, AttributeValue> item = new HashMap<>();
        counters.forEach(c -> item.put(c.attribute(), AttributeValue.fromN(Integer.toString(c.attribute().length()))));
        return item;
    }

    @Test
    void globalStats_theContractsShapeAndOrder() {
        List<SharedCounter> counters = REGISTRY.sharedCounters(Users.GLOBAL_STATS);
        var json = Json.object();
        StatsRoutes.render(json, counters, List.of(lengths(counters)));

        assertThat(json.toString()).isEqualTo("{\"users\":5,\"posts\":{\"created\":12,\"updated\":12,\"deleted\":12},"
                + "\"comments\":8,\"items\":5,\"completed\":9,\"orgs\":4,\"employees\":9,\"downloads\":9,"
                + "\"favourites\":10}");
    }

    @Test
    void userStats_theContractsOrder() {
        List<SharedCounter> counters = REGISTRY.sharedCounters(Users.USER_STATS);
        var json = Json.object();
        StatsRoutes.render(json, counters, List.of(lengths(counters)));

        assertThat(json.toString()).isEqualTo("{\"posts\":5,\"comments\":8,\"completed\":9,\"correctGuesses\":14,"
                + "\"liveCompleted\":13,\"assigned\":8,\"inProgress\":10,\"orphaned\":8}");
    }
}
