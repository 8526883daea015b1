package io.tally.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** The requests every store builds alike, as DynamoDB receives them. */
class RequestsTest {
    private static final Key KEY = new Key("USER#u1", "FAV#f1");

    @Test
    void existsAction_checksThatTheKeyIsTaken_withoutReadingOrWriting() {
        ConditionCheck check = Requests.existsAction("t", KEY).conditionCheck();
        assertThat(check).isEqualTo(ConditionCheck.builder().tableName("t").key(KEY.toAttributeMap())
                .conditionExpression("attribute_exists(pk)").build());
    }

    @Test
    void incarnationAction_checksTheIncarnationRead() {
        ConditionCheck check = Requests.incarnationAction("t", KEY, "favouriteIncarnation", "i1").conditionCheck();
        assertThat(check.tableName()).isEqualTo("t");
        assertThat(check.key()).isEqualTo(KEY.toAttributeMap());
        assertThat(check.conditionExpression()).isEqualTo("#incarnation = :incarnation");
        assertThat(check.expressionAttributeNames()).isEqualTo(Map.of("#incarnation", "favouriteIncarnation"));
        assertThat(check.expressionAttributeValues()).isEqualTo(Map.of(":incarnation", AttributeValue.fromS("i1")));
    }

    @Test
    void deleteExisting_failsOnAMissingItem_andAnswersTheOldOne() {
        DeleteItemRequest delete = Requests.deleteExisting("t", KEY);
        assertThat(delete.conditionExpression()).isEqualTo("attribute_exists(pk)");
        assertThat(delete.returnValues()).isEqualTo(ReturnValue.ALL_OLD);
        assertThat(delete.key()).isEqualTo(KEY.toAttributeMap());
    }
}
