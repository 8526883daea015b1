package io.tally.writer.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.tally.core.ShardSettings;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Authorization;
import io.tally.core.http.Json;
import io.tally.core.http.Router;
import io.tally.testkit.UnreachableDynamoDb;
import io.tally.writer.WriterApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document is the route table's: a real OpenAPI parser reads it without a message, and it holds exactly
 * the routes the router serves, each with its path parameters and rule. {@code docs/openapi.json} is the document as
 * served (regenerate it with {@code -Dtally.openapi.write=true}).
 */
class OpenApiDocumentTest {
    private static final Path DOCS = Path.of("..", "docs", "openapi.json");
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    private final WriterApi api = new WriterApi(UnreachableDynamoDb.client(request -> {
        throw new IllegalStateException("the document must not touch the table");
    }), "tally", Clock.systemUTC(), new byte[32], ShardSettings.DEFAULTS, "tally-activity", Authorization.OPEN);

    private String served() {
        ApiResponse response = api.handle(new ApiRequest("GET", "/openapi.json", Map.of(), Map.of(), Map.of(), null));
        assertThat(response.status()).isEqualTo(200);
        return response.bodyText();
    }

    @Test
    void servedDocument_parsesWithoutAMessage_andIsOpenApi3() {
        SwaggerParseResult result = new OpenAPIParser().readContents(served(), null, null);

        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI().getOpenapi()).startsWith("3.0");
    }

    @Test
    void servedDocument_holdsExactlyTheRoutesTheRouterServes_withTheirParametersAndRules() {
        OpenAPI document = new OpenAPIParser().readContents(served(), null, null).getOpenAPI();
        List<String> documented = new ArrayList<>();
        document.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            documented.add(method.name() + " " + path);
            List<String> pathParameters = new ArrayList<>();
            for (Parameter parameter : operation.getParameters()) {
                if ("path".equals(parameter.getIn())) {
                    pathParameters.add(parameter.getName());
                    assertThat(parameter.getRequired()).as(path).isTrue();
                }
            }
            List<String> inTemplate = new ArrayList<>();
            Matcher names = PARAMETER.matcher(path);
            while (names.find()) {
                inTemplate.add(names.group(1));
            }
            assertThat(pathParameters).as("path parameters of %s %s", method, path).isEqualTo(inTemplate);
            assertThat(operation.getResponses()).as(path).isNotEmpty();
        }));
        List<String> served = api.routeRules().stream().map(rule -> rule.method() + " " + rule.template()).toList();

        assertThat(documented).containsExactlyInAnyOrderElementsOf(served);
        api.routeRules().forEach(rule -> {
            Operation operation = operation(document.getPaths().get(rule.template()), rule.method());
            assertThat(operation.getExtensions()).as(rule.toString()).containsEntry("x-tally-access",
                    rule.access().toString());
            assertThat(operation.getOperationId()).isNotBlank();
        });
        assertThat(new TreeSet<>(document.getPaths().keySet().stream().map(p -> p.toLowerCase(Locale.ROOT)).toList()))
                .hasSameSizeAs(document.getPaths().keySet());
    }

    @Test
    void docsCopy_isTheServedDocument() throws IOException {
        String served = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(Json.MAPPER.readTree(served()))
                + "\n";
        if (Boolean.getBoolean("tally.openapi.write")) {
            Files.writeString(DOCS, served);
        }
        assertThat(Files.readString(DOCS)).as("docs/openapi.json is not the served document: regenerate it with "
                + "mvn -q -pl writer-service -am test -Dtest=OpenApiDocumentTest -Dsurefire.failIfNoSpecifiedTests=false "
                + "-Dtally.openapi.write=true").isEqualTo(served);
    }

    @Test
    void operationId_isTheMethodAndThePathInWords() {
        Router.Description route = new Router.Description("GET", "/users/{userId}/posts", null, null, List.of(),
                List.of(), false, 200, null, true);

        assertThat(OpenApiDocument.operationId(route)).isEqualTo("getUsersUserIdPosts");
    }

    @Test
    void listsAndShapes_areDescribedFromTheRecordsThatRenderThem() throws IOException {
        JsonNode document = Json.MAPPER.readTree(served());
        JsonNode users = document.path("paths").path("/users/{userId}").path("get");

        assertThat(users.path("responses").path("200").path("content").path("application/json").path("schema")
                .path("$ref").asText()).isEqualTo("#/components/schemas/User");
        assertThat(document.path("components").path("schemas").path("User").path("properties").fieldNames())
                .toIterable().containsExactly("userId", "name", "email", "createdAt", "updatedAt", "version");
        assertThat(users.path("responses").path("404").path("$ref").asText())
                .isEqualTo("#/components/responses/Error");
    }

    @Test
    void everyBodyField_hasItsType_andTheRequiredOnesAreListed() throws IOException {
        JsonNode paths = Json.MAPPER.readTree(served()).path("paths");
        List<String> untyped = new ArrayList<>();
        int fields = 0;
        for (var path = paths.fields(); path.hasNext(); ) {
            var entry = path.next();
            for (var operation = entry.getValue().fields(); operation.hasNext(); ) {
                var method = operation.next();
                JsonNode schema = method.getValue().path("requestBody").path("content").path("application/json")
                        .path("schema");
                for (var field = schema.path("properties").fields(); field.hasNext(); ) {
                    var property = field.next();
                    fields++;
                    if (!property.getValue().hasNonNull("type")) {
                        untyped.add(method.getKey() + " " + entry.getKey() + " " + property.getKey());
                    }
                }
            }
        }
        assertThat(fields).isGreaterThan(20);
        assertThat(untyped).isEmpty();
        JsonNode createPost = paths.path("/users/{userId}/posts").path("post").path("requestBody");
        assertThat(createPost.path("required").asBoolean()).isTrue();
        assertThat(createPost.path("content").path("application/json").path("schema").path("required"))
                .extracting(JsonNode::asText).containsExactly("body", "title");
        // A body that may be left out says so: a membership's role.
        assertThat(paths.path("/orgs/{orgId}/teams/{teamId}/members/{employeeId}").path("put").path("requestBody")
                .path("required").asBoolean()).isFalse();
    }

    /** A shape of one domain's. */
    record Stats(long posts) {
    }

    /** A shape holding another domain's {@code Stats} in a list. */
    record Holder(java.util.List<Other.Stats> stats) {
    }

    /** Another domain's shape of the same simple name. */
    static final class Other {
        record Stats(long reviews) {
        }
    }

    @Test
    void twoShapesOfOneName_areRefusedByName_oneShapeTwiceIsOne() {
        Router router = new Router();
        router.add("GET", "/a", io.tally.core.http.Access.READ_SIDE, request -> ApiResponse.ok(Json.object()))
                .returns(200, Stats.class);
        router.add("GET", "/b", io.tally.core.http.Access.READ_SIDE, request -> ApiResponse.ok(Json.object()))
                .returns(200, Stats.class);
        assertThat(OpenApiDocument.of(router.descriptions(), "1.0").path("components").path("schemas").has("Stats"))
                .isTrue();

        router.add("GET", "/c", io.tally.core.http.Access.READ_SIDE, request -> ApiResponse.ok(Json.object()))
                .returns(200, Other.Stats.class);
        String message = "two shapes of the API are named Stats: " + Stats.class.getName() + " and "
                + Other.Stats.class.getName() + "; the OpenAPI document names a schema by its simple class name, so "
                + "rename one";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OpenApiDocument.of(router.descriptions(), "1.0"))
                .isInstanceOf(IllegalStateException.class).hasMessage(message);
        // The check the writer makes at its start, without building the document: the same refusal, also of a shape
        // held in a list of another's components.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OpenApiRoutes.register(router).check())
                .isInstanceOf(IllegalStateException.class).hasMessage(message);
        Router nested = new Router();
        nested.add("GET", "/a", io.tally.core.http.Access.READ_SIDE, request -> ApiResponse.ok(Json.object()))
                .returns(200, Stats.class);
        nested.add("GET", "/d", io.tally.core.http.Access.READ_SIDE, request -> ApiResponse.ok(Json.object()))
                .returns(200, Holder.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OpenApiRoutes.register(nested).check())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("named Stats");
        OpenApiRoutes.register(new Router()).check();
    }

    private static Operation operation(PathItem item, String method) {
        return item.readOperationsMap().get(PathItem.HttpMethod.valueOf(method));
    }
}
