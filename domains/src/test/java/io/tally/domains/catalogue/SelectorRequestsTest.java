package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.read.ShardMerge.Position;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class SelectorRequestsTest {
    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** The attribute names a projection expression asks for, its placeholders resolved. */
    private static List<String> projected(String expression, Map<String, String> names) {
        return Stream.of(expression.split(", ")).map(names::get).toList();
    }

    @Test
    void selector_afterAPosition_startsAfterThatEntryInThatPartition() {
        QueryRequest request = SelectorRequests.selector("t", "back-catalogue:2", 10, new Position("70", "item-5"));
        assertThat(request.indexName()).isEqualTo("CycleSelector");
        assertThat(request.expressionAttributeNames()).containsEntry("#partition", "selector");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":partition", s("back-catalogue:2")));
        assertThat(request.scanIndexForward()).isFalse();
        assertThat(request.limit()).isEqualTo(11);
        assertThat(request.exclusiveStartKey()).isEqualTo(Map.of(
                "pk", s("ITEM#item-5"), "sk", s("#SELECTOR#"),
                "selector", s("back-catalogue:2"), "data", AttributeValue.fromN("70")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames()))
                .containsExactly("entityType", "itemId", "title", "score", "pk", "data");
    }

    @Test
    void selectorPartitions_backCatalogue_isEveryShard() {
        assertThat(SelectorRequests.selectorPartitions("back-catalogue", 4))
                .containsExactly("back-catalogue:0", "back-catalogue:1", "back-catalogue:2", "back-catalogue:3");
    }

    @Test
    void selectorPartitions_cycle_isOnePartition() {
        assertThat(SelectorRequests.selectorPartitions("global-cycle:3", 4)).containsExactly("global-cycle:3");
        assertThat(SelectorRequests.selectorPartitions("user-cycle:0", 4)).containsExactly("user-cycle:0");
    }

    @Test
    void selectorScope_otherSelectorOrPartitionCount_differs() {
        assertThat(Stream.of(SelectorRequests.selectorScope("back-catalogue", 4),
                SelectorRequests.selectorScope("back-catalogue", 5), SelectorRequests.selectorScope("global-cycle:1", 1),
                SelectorRequests.selectorScope("global-cycle:11", 1))).doesNotHaveDuplicates();
    }

    @Test
    void selectorPosition_itemAndLastEvaluatedKey_giveTheSamePosition() {
        Map<String, AttributeValue> key = Map.of("pk", s("ITEM#i1"), "sk", s("#SELECTOR#"),
                "selector", s("back-catalogue:0"), "data", AttributeValue.fromN("42"));
        Position position = new Position("42", "i1");
        assertThat(SelectorRequests.selectorPosition(key)).isEqualTo(position);
        assertThat(SelectorRequests.selectorStartKey("back-catalogue:0", position)).isEqualTo(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "01", "1.5", "1e3", " 1", "9999999999999999999"})
    void isValidSelectorPosition_scoreNotAPlainWholeNumber_isInvalid(String score) {
        assertThat(SelectorRequests.isValidSelectorPosition(new Position(score, "i1"))).isFalse();
    }

    @Test
    void isValidSelectorPosition_acceptsOnlyWhatAnEntryGives() {
        assertThat(SelectorRequests.isValidSelectorPosition(new Position("0", "i1"))).isTrue();
        assertThat(SelectorRequests.isValidSelectorPosition(new Position("1000000000", "i1"))).isTrue();
        assertThat(SelectorRequests.isValidSelectorPosition(new Position("5", "a:b"))).isFalse();
    }

    @Test
    void selectorOrder_highestFirst_tiesByIdDescending() {
        assertThat(Stream.of(new Position("9", "a"), new Position("10", "a"), new Position("9", "b"))
                .sorted(SelectorRequests.SELECTOR_ORDER))
                .containsExactly(new Position("10", "a"), new Position("9", "b"), new Position("9", "a"));
    }
}
