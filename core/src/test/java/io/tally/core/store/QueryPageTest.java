package io.tally.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

class QueryPageTest {
    private static final Set<String> KEY = Set.of("pk", "sk");

    @Test
    void of_oneItemMoreThanTheLimit_dropsItAndContinuesAfterTheLastKeptItem() {
        QueryResponse response = QueryResponse.builder()
                .items(item("a"), item("b"), item("c"))
                .lastEvaluatedKey(key("c"))
                .build();

        QueryPage page = QueryPage.of(response, 2, KEY);

        assertThat(page.items()).containsExactly(item("a"), item("b"));
        assertThat(page.nextKey()).isEqualTo(key("b"));
    }

    @Test
    void of_exactlyTheLimit_isTheLastPage() {
        QueryResponse response = QueryResponse.builder().items(item("a"), item("b")).build();

        QueryPage page = QueryPage.of(response, 2, KEY);

        assertThat(page.items()).hasSize(2);
        assertThat(page.nextKey()).isNull();
    }

    @Test
    void of_fewerItemsWithLastEvaluatedKey_continuesWhereTheSizeCapStopped() {
        QueryResponse response = QueryResponse.builder().items(item("a")).lastEvaluatedKey(key("a")).build();

        QueryPage page = QueryPage.of(response, 2, KEY);

        assertThat(page.items()).containsExactly(item("a"));
        assertThat(page.nextKey()).isEqualTo(key("a"));
    }

    @Test
    void of_noItems_isAnEmptyLastPage() {
        QueryPage page = QueryPage.of(QueryResponse.builder().items(List.of()).build(), 2, KEY);

        assertThat(page.items()).isEmpty();
        assertThat(page.nextKey()).isNull();
    }

    private static Map<String, AttributeValue> item(String sk) {
        return Map.of("pk", AttributeValue.fromS("P"), "sk", AttributeValue.fromS(sk), "other", AttributeValue.fromS("x"));
    }

    private static Map<String, AttributeValue> key(String sk) {
        return Map.of("pk", AttributeValue.fromS("P"), "sk", AttributeValue.fromS(sk));
    }
}
