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

    @ParameterizedTest
    @Event(value = "events/create-user-overlong-utf8-base64.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_base64BodyThatIsNotUtf8_returns400InvalidRequest_andStoresNothing(APIGatewayV2HTTPEvent event)
            throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(response.getBody()).at("/error/code").asText()).isEqualTo("invalid_request");
        assertThat(get("/users/user-overlong").getStatusCode()).isEqualTo(404);
    }

    @ParameterizedTest
    @Event(value = "events/create-user-lone-surrogate-escape.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_loneSurrogateEscape_returns400InvalidRequestNamingTheField(APIGatewayV2HTTPEvent event)
            throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        JsonNode error = Json.MAPPER.readTree(response.getBody()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("invalid_request");
        assertThat(error.get("field").asText()).isEqualTo("name");
        assertThat(get("/users/user-surrogate").getStatusCode()).isEqualTo(404);
    }

    @ParameterizedTest
    @Event(value = "events/create-user-nul-escape.json", type = APIGatewayV2HTTPEvent.class)
    void createUser_nulInTheName_returns400ValidationFailed(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        JsonNode error = Json.MAPPER.readTree(response.getBody()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("validation_failed");
        assertThat(error.get("field").asText()).isEqualTo("name");
        assertThat(get("/users/user-nul").getStatusCode()).isEqualTo(404);
    }

    @ParameterizedTest
    @Event(value = "events/put-user-item-progress-underflow.json", type = APIGatewayV2HTTPEvent.class)
    void putUserItem_progressDynamoDbCannotHold_returns400NotA500(APIGatewayV2HTTPEvent event) throws Exception {
        assertThat(createEric().status()).isEqualTo(201);
        APIGatewayV2HTTPEvent item = com.amazonaws.services.lambda.runtime.tests.EventLoader
                .loadApiGatewayHttpEvent("events/put-user-item-progress-underflow.json");
        item.setRawPath("/items/item-1");
        item.getRequestContext().getHttp().setPath("/items/item-1");
        item.setBody("{\"title\":\"Item\",\"score\":70,\"selector\":\"back-catalogue\"}");
        assertThat(handler.handleRequest(item, null).getStatusCode()).isEqualTo(201);

        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        JsonNode error = Json.MAPPER.readTree(response.getBody()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("validation_failed");
        assertThat(error.get("field").asText()).isEqualTo("progress");
        assertThat(Json.MAPPER.readTree(get("/users/user-8790/items?state=in-progress").getBody()).get("items"))
                .isEmpty();
    }

    @ParameterizedTest
    @Event(value = "events/get-user-path-not-utf8.json", type = APIGatewayV2HTTPEvent.class)
    void getUser_pathThatIsNotUtf8_returns400InvalidRequest(APIGatewayV2HTTPEvent event) throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(response.getBody()).at("/error/code").asText()).isEqualTo("invalid_request");
    }

    @ParameterizedTest
    @Event(value = "events/get-posts-query-not-utf8.json", type = APIGatewayV2HTTPEvent.class)
    void listPosts_queryStringThatIsNotUtf8_returns400BadRequestNamingTheParameter(APIGatewayV2HTTPEvent event)
            throws Exception {
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(400);
        JsonNode error = Json.MAPPER.readTree(response.getBody()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("bad_request");
        assertThat(error.get("field").asText()).isEqualTo("q");
    }

    /** A GET of {@code pathAndQuery} in the shape of the fixtures. */
    private APIGatewayV2HTTPResponse get(String pathAndQuery) {
        APIGatewayV2HTTPEvent event = com.amazonaws.services.lambda.runtime.tests.EventLoader
                .loadApiGatewayHttpEvent("events/get-user.json");
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        event.setRawPath(path);
        event.getRequestContext().getHttp().setPath(path);
        if (q >= 0) {
            event.setRawQueryString(pathAndQuery.substring(q + 1));
            java.util.Map<String, String> query = new java.util.LinkedHashMap<>();
            for (String pair : pathAndQuery.substring(q + 1).split("&")) {
                String[] parts = pair.split("=", 2);
                query.put(parts[0], parts.length > 1 ? parts[1] : "");
            }
            event.setQueryStringParameters(query);
        }
        return handler.handleRequest(event, null);
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
