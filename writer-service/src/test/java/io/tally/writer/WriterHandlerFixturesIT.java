package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.tests.annotations.Event;
import com.fasterxml.jackson.databind.JsonNode;
import io.tally.testkit.LocalDynamoDb;
import io.tally.core.http.Json;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;

/** The handler fed with API Gateway HTTP API (payload 2.0) events as API Gateway sends them. */
class WriterHandlerFixturesIT {
    private WriterHandler handler;

    @BeforeEach
    void setUp() {
        String table = LocalDynamoDb.createTable("fixtures");
        handler = new WriterHandler(new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET));
    }

    @ParameterizedTest
    @Event(value = "events/create-user.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_event_returns201WithJsonUser(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(201);
        assertThat(response.getHeaders()).containsEntry("Content-Type", "application/json")
                .containsEntry("Location", "/users/user-8790").containsEntry("ETag", "\"1\"");
        JsonNode body = Json.MAPPER.readTree(response.getBody());
        assertThat(body.get("userId").asText()).isEqualTo("user-8790");
        assertThat(body.get("name").asText()).isEqualTo("Eric");
        assertThat(response.getIsBase64Encoded()).isFalse();
    }

    @ParameterizedTest
    @Event(value = "events/create-user-base64.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_base64Body_isDecoded(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(201);
        assertThat(Json.MAPPER.readTree(response.getBody()).get("userId").asText()).isEqualTo("user-42");
    }

    @ParameterizedTest
    @Event(value = "events/get-user.json", type = APIGatewayV2HTTPEvent.class)
    void getUser_unknown_returns404(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(404);
        assertThat(Json.MAPPER.readTree(response.getBody()).at("/error/code").asText()).isEqualTo("not_found");
    }

    @ParameterizedTest
    @Event(value = "events/patch-user-stale-if-match.json", type = APIGatewayV2HTTPEvent.class)
    void patchUser_staleIfMatch_returns412(APIGatewayV2HTTPEvent event) throws Exception {
        TestApi.Response created = createEric();
        assertThat(created.status()).isEqualTo(201);
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(412);
        JsonNode error = Json.MAPPER.readTree(response.getBody()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("precondition_failed");
        assertThat(error.get("field").asText()).isEqualTo("If-Match");
    }

    @ParameterizedTest
    @Event(value = "events/create-user-unreadable-json.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_unreadableJson_returns400BadRequest(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(response.getBody()).at("/error/code").asText()).isEqualTo("bad_request");
    }

    @ParameterizedTest
    @Event(value = "events/create-user-unknown-field.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_unknownField_returns400NamingIt(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(400);
        JsonNode error = Json.MAPPER.readTree(response.getBody()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("validation_failed");
        assertThat(error.get("field").asText()).isEqualTo("admin");
        assertThat(error.fieldNames()).toIterable().containsExactly("code", "message", "field");
    }

    @ParameterizedTest
    @Event(value = "events/unknown-route.json", type = APIGatewayV2HTTPEvent.class)
    void unknownRoute_returns404Json(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(404);
        assertThat(Json.MAPPER.readTree(response.getBody()).at("/error/code").asText()).isEqualTo("not_found");
    }

    @ParameterizedTest
    @Event(value = "events/method-not-allowed.json", type = APIGatewayV2HTTPEvent.class)
    void wrongMethod_returns405WithAllow(APIGatewayV2HTTPEvent event) {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).isEqualTo(405);
        assertThat(response.getHeaders()).containsEntry("Allow", "POST");
    }

    private TestApi.Response createEric() {
        APIGatewayV2HTTPEvent create = com.amazonaws.services.lambda.runtime.tests.EventLoader
                .loadApiGatewayHttpEvent("events/create-user.json");
        APIGatewayV2HTTPResponse response = handler.handleRequest(create, null);
        try {
            return new TestApi.Response(response.getStatusCode(), Json.MAPPER.readTree(response.getBody()), response.getHeaders());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
