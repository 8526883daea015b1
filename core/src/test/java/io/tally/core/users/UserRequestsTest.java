package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.http.IfMatch;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class UserRequestsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00.123Z");

    @Test
    void create_neverOverwrites() {
        var request = UserRequests.create("t", new User("u1", "Ada", "a@example.com", NOW, NOW, 1));
        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.conditionExpression()).isEqualTo("attribute_not_exists(pk)");
        assertThat(request.item().get("pk").s()).isEqualTo("USER#u1");
        assertThat(request.item().get("entityType").s()).isEqualTo("User");
    }

    @Test
    void get_isStronglyConsistent() {
        var request = UserRequests.get("t", "u1");
        assertThat(request.consistentRead()).isTrue();
        assertThat(request.key()).containsEntry("pk", AttributeValue.fromS("USER#u1"))
                .containsEntry("sk", AttributeValue.fromS("#METADATA#u1"));
    }

    @Test
    void update_withoutIfMatch_onlyRequiresExistence() {
        UpdateItemRequest request = UserRequests.update("t", "u1", "Ada", null, NOW, IfMatch.NONE);
        assertThat(request.updateExpression()).isEqualTo("SET #name = :name, updatedAt = :now, version = version + :one");
        assertThat(request.conditionExpression()).isEqualTo("attribute_exists(pk)");
        assertThat(request.expressionAttributeNames()).containsEntry("#name", "name");
        assertThat(request.expressionAttributeValues()).containsEntry(":now", AttributeValue.fromS("2026-11-22T10:00:00.123Z"))
                .doesNotContainKey(":expected");
        assertThat(request.returnValues()).isEqualTo(ReturnValue.ALL_NEW);
        assertThat(request.returnValuesOnConditionCheckFailure()).isEqualTo(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    @Test
    void update_withIfMatch_requiresTheVersion() {
        UpdateItemRequest request = UserRequests.update("t", "u1", null, "b@example.com", NOW, new IfMatch(true, 4L));
        assertThat(request.updateExpression()).isEqualTo("SET email = :email, updatedAt = :now, version = version + :one");
        assertThat(request.conditionExpression()).isEqualTo("attribute_exists(pk) AND version = :expected");
        assertThat(request.expressionAttributeValues()).containsEntry(":expected", AttributeValue.fromN("4"));
        assertThat(request.hasExpressionAttributeNames()).isFalse();
    }
}
