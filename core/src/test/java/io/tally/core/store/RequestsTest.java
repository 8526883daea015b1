package io.tally.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

class RequestsTest {
    @Test
    void consistentGet_readsTheWholeItemStronglyConsistent() {
        GetItemRequest get = Requests.consistentGet("t", new Key("A#1", "B#2"));
        assertThat(get.tableName()).isEqualTo("t");
        assertThat(get.key()).containsEntry("pk", AttributeValue.fromS("A#1")).containsEntry("sk",
                AttributeValue.fromS("B#2"));
        assertThat(get.consistentRead()).isTrue();
        assertThat(get.hasAttributesToGet()).isFalse();
        assertThat(get.projectionExpression()).isNull();
    }
}
