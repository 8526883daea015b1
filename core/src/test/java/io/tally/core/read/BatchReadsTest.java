package io.tally.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

class BatchReadsTest {
    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static KeysAndAttributes request() {
        return KeysAndAttributes.builder().keys(List.of(Map.of("pk", s("A"), "sk", s("#S#")),
                Map.of("pk", s("B"), "sk", s("#S#")))).projectionExpression("#a").expressionAttributeNames(Map.of("#a", "n"))
                .consistentRead(true).build();
    }

    @Test
    void unprocessed_someKeysLeft_asksForExactlyThose() {
        KeysAndAttributes left = request().toBuilder()
                .keys(Map.of("pk", s("B"), "sk", s("#S#"))).build();
        BatchGetItemResponse response = BatchGetItemResponse.builder().unprocessedKeys(Map.of("t", left)).build();

        BatchGetItemRequest next = BatchReads.unprocessed(response);

        assertThat(next.requestItems()).isEqualTo(Map.of("t", left));
    }

    @Test
    void unprocessed_noneLeft_isNull() {
        assertThat(BatchReads.unprocessed(BatchGetItemResponse.builder().build())).isNull();
        assertThat(BatchReads.unprocessed(BatchGetItemResponse.builder().unprocessedKeys(Map.of()).build())).isNull();
        assertThat(BatchReads.unprocessed(BatchGetItemResponse.builder()
                .unprocessedKeys(Map.of("t", KeysAndAttributes.builder().keys(List.of()).build())).build())).isNull();
    }
}
