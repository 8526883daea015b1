package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.SharedCounter;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class StatsRequestsTest {
    /** The kernel and a domain adding counters to both shared items. */
    static final DomainRegistry REGISTRY = DomainRegistry.of(new UsersDomain(), new Domain() {
        @Override
        public String name() {
            return "counting";
        }

        @Override
        public List<String> requires() {
            return List.of(UsersDomain.NAME);
        }

        @Override
        public List<SharedCounter> sharedCounters() {
            return List.of(SharedCounter.of(Users.USER_STATS, "posts"), SharedCounter.of(Users.USER_STATS, "comments"),
                    SharedCounter.of(Users.GLOBAL_STATS, "items"));
        }
    });

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** The attribute names a projection expression asks for, its placeholders resolved. */
    private static List<String> projected(String expression, Map<String, String> names) {
        return Stream.of(expression.split(", ")).map(names::get).toList();
    }

    @Test
    void userStats_queriesTheStatsItemAndItsPartialsCountersConsistently() {
        var request = StatsRequests.userStats("t", "u1", REGISTRY);
        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.keyConditionExpression()).isEqualTo("#pk = :pk AND begins_with(#sk, :sk)");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":pk", s("USER#u1"), ":sk", s("#STATS#")));
        assertThat(request.consistentRead()).isTrue();
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly(
                "entityType", "posts", "comments", "pk", "sk");
    }

    @Test
    void user_readsOnlyTheKeyOfTheUserItem() {
        var request = StatsRequests.user("t", "u1");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("USER#u1"), "sk", s("#METADATA#u1")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly("pk");
        assertThat(request.consistentRead()).isTrue();
    }

    @Test
    void globalStats_queriesOneSlotAndItsPartials() {
        QueryRequest request = StatsRequests.globalStats("t", 3, REGISTRY);
        assertThat(request.expressionAttributeValues()).isEqualTo(
                Map.of(":pk", s("GLOBAL#STATS#3"), ":sk", s("#STATS#")));
        assertThat(request.consistentRead()).isTrue();
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly(
                "entityType", "users", "items", "pk", "sk");
    }
}
