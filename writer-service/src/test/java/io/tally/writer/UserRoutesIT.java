package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class UserRoutesIT {
    private final TestApi api = TestApi.onFreshTable();

    @Test
    void createUser_withId_returns201AndReadsBack() {
        var created = api.call("POST", "/users", "{\"userId\":\"user-8790\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().fieldNames()).toIterable()
                .containsExactly("userId", "name", "email", "createdAt", "updatedAt", "version");
        assertThat(created.text("userId")).isEqualTo("user-8790");
        assertThat(created.body().get("version").asLong()).isEqualTo(1);
        assertThat(created.headers()).containsEntry("ETag", "\"1\"").containsEntry("Location", "/users/user-8790");

        var read = api.call("GET", "/users/user-8790");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(created.body());
    }

    @Test
    void createUser_existingId_returns409() {
        api.call("POST", "/users", "{\"userId\":\"dup\",\"name\":\"A\",\"email\":\"a@example.com\"}");
        var again = api.call("POST", "/users", "{\"userId\":\"dup\",\"name\":\"B\",\"email\":\"b@example.com\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo("conflict");
        assertThat(api.call("GET", "/users/dup").text("name")).isEqualTo("A");
    }

    @Test
    void createUser_withoutId_generatesTimeOrderedIds() {
        var first = api.call("POST", "/users", "{\"name\":\"A\",\"email\":\"a@example.com\"}");
        var second = api.call("POST", "/users", "{\"name\":\"B\",\"email\":\"b@example.com\"}");
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text("userId")).matches("[0-9A-Z]{26}");
        assertThat(second.text("userId")).isGreaterThan(first.text("userId"));
    }

    @Test
    void patchUser_changesFieldsAndBumpsVersion() {
        api.call("POST", "/users", "{\"userId\":\"u1\",\"name\":\"A\",\"email\":\"a@example.com\"}");
        var patched = api.call("PATCH", "/users/u1", "{\"name\":\"Ada\"}", Map.of("If-Match", "\"1\""));
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.text("name")).isEqualTo("Ada");
        assertThat(patched.text("email")).isEqualTo("a@example.com");
        assertThat(patched.body().get("version").asLong()).isEqualTo(2);
    }

    @Test
    void patchUser_staleIfMatch_returns412AndChangesNothing() {
        api.call("POST", "/users", "{\"userId\":\"u2\",\"name\":\"A\",\"email\":\"a@example.com\"}");
        api.call("PATCH", "/users/u2", "{\"name\":\"B\"}");
        var stale = api.call("PATCH", "/users/u2", "{\"name\":\"C\"}", Map.of("If-Match", "1"));
        assertThat(stale.status()).isEqualTo(412);
        assertThat(stale.errorCode()).isEqualTo("precondition_failed");
        assertThat(api.call("GET", "/users/u2").text("name")).isEqualTo("B");
    }

    @Test
    void patchUser_unknown_returns404() {
        var missing = api.call("PATCH", "/users/nobody", "{\"name\":\"B\"}");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
        assertThat(api.call("GET", "/users/nobody").status()).isEqualTo(404);
    }

    @Test
    void createUser_badInput_returnsDocumentedErrors() {
        assertThat(api.call("POST", "/users", "{\"name\":").errorCode()).isEqualTo("bad_request");
        assertThat(api.call("POST", "/users", "[1]").errorCode()).isEqualTo("bad_request");
        var unknown = api.call("POST", "/users", "{\"name\":\"A\",\"email\":\"a@example.com\",\"age\":3}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorField()).isEqualTo("age");
        var longName = api.call("POST", "/users", "{\"name\":\"" + "x".repeat(101) + "\",\"email\":\"a@example.com\"}");
        assertThat(longName.errorCode()).isEqualTo("validation_failed");
        assertThat(longName.errorField()).isEqualTo("name");
        var badId = api.call("POST", "/users", "{\"userId\":\"a#b\",\"name\":\"A\",\"email\":\"a@example.com\"}");
        assertThat(badId.errorField()).isEqualTo("userId");
        var badEmail = api.call("POST", "/users", "{\"name\":\"A\",\"email\":\"nope\"}");
        assertThat(badEmail.errorField()).isEqualTo("email");
        var huge = api.call("POST", "/users", "{\"name\":\"" + "x".repeat(70_000) + "\",\"email\":\"a@example.com\"}");
        assertThat(huge.status()).isEqualTo(413);
        assertThat(huge.errorCode()).isEqualTo("payload_too_large");
    }

    @Test
    void getUser_corruptItemInTable_answers500WithoutDetails() {
        io.tally.testkit.LocalDynamoDb.client().putItem(r -> r.tableName(api.table()).item(Map.of(
                "pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("USER#broken"),
                "sk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("#METADATA#broken"),
                "entityType", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("User"))));
        var response = api.call("GET", "/users/broken");
        assertThat(response.status()).isEqualTo(500);
        assertThat(response.body().toString()).isEqualTo("{\"error\":{\"code\":\"internal\",\"message\":\"internal error\"}}");
    }

    @Test
    void pathId_invalid_returns400NamingIt() {
        var response = api.call("GET", "/users/a%23b");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.errorCode()).isEqualTo("validation_failed");
        assertThat(response.errorField()).isEqualTo("userId");
    }

    @Test
    void patchUser_nothingToChange_returns400() {
        api.call("POST", "/users", "{\"userId\":\"u3\",\"name\":\"A\",\"email\":\"a@example.com\"}");
        assertThat(api.call("PATCH", "/users/u3", "{}").errorCode()).isEqualTo("validation_failed");
    }

    @Test
    void patchUser_ifMatchStar_matchesAnyVersion() {
        api.call("POST", "/users", "{\"userId\":\"u4\",\"name\":\"A\",\"email\":\"a@example.com\"}");
        var patched = api.call("PATCH", "/users/u4", "{\"email\":\"b@example.com\"}", Map.of("If-Match", "*"));
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.headers()).containsEntry("ETag", "\"2\"");
        var garbage = api.call("PATCH", "/users/u4", "{\"email\":\"c@example.com\"}", Map.of("If-Match", "\"abc\""));
        assertThat(garbage.status()).isEqualTo(412);
    }
}
