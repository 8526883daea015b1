package io.tally.writer.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Field;
import io.tally.core.http.Json;
import io.tally.core.http.Router;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The OpenAPI 3 document of the routes the router serves, built from the route table itself ({@link Router#descriptions}):
 * every path and method, its path and query parameters, its body's fields, its answer's shape (from the record that
 * renders it), who may call it ({@code security} and {@code x-tally-access}) and the contract's error answers. Served
 * at {@code GET /openapi.json} and kept in {@code docs/openapi.json}.
 */
public final class OpenApiDocument {
    private static final String ERROR = "#/components/responses/Error";

    private OpenApiDocument() {
    }

    /** The document of these routes, in their order. */
    public static ObjectNode of(List<Router.Description> routes, String version) {
        ObjectNode document = Json.object();
        document.put("openapi", "3.0.3");
        ObjectNode info = document.putObject("info");
        info.put("title", "Tally writer API and read side");
        info.put("version", version);
        info.put("description", "JSON in and out. Errors carry {\"error\": {\"code\", \"message\", \"field\"?}}. "
                + "Lists answer {\"items\": [...], \"cursor\": ... | null}; pass the cursor back for the next page.");
        Schemas schemas = new Schemas();
        ObjectNode paths = document.putObject("paths");
        for (Router.Description route : routes) {
            ObjectNode path = paths.has(route.template()) ? (ObjectNode) paths.get(route.template())
                    : paths.putObject(route.template());
            path.set(route.method().toLowerCase(Locale.ROOT), operation(route, schemas));
        }
        ObjectNode components = document.putObject("components");
        components.set("schemas", schemas.definitions());
        components.putObject("responses").set("Error", errorResponse(components));
        ObjectNode bearer = components.putObject("securitySchemes").putObject("bearer");
        bearer.put("type", "http");
        bearer.put("scheme", "bearer");
        bearer.put("bearerFormat", "JWT");
        bearer.put("description", "A JWT of the deployment's OIDC issuer (Amazon Cognito by default); locally, one "
                + "minted by tally-local token.");
        return document;
    }

    private static ObjectNode operation(Router.Description route, Schemas schemas) {
        ObjectNode operation = Json.object();
        operation.put("operationId", operationId(route));
        operation.put("summary", route.summary() == null ? route.method() + " " + route.template() : route.summary());
        operation.put("x-tally-access", route.access().toString());
        ArrayNode parameters = operation.putArray("parameters");
        for (String name : Router.parameters(route.template())) {
            ObjectNode parameter = parameters.addObject();
            parameter.put("name", name);
            parameter.put("in", "path");
            parameter.put("required", true);
            parameter.putObject("schema").put("type", "string");
        }
        for (String name : route.query()) {
            ObjectNode parameter = parameters.addObject();
            parameter.put("name", name);
            parameter.put("in", "query");
            parameter.put("required", false);
            ObjectNode schema = parameter.putObject("schema");
            if (name.equals("limit")) {
                schema.put("type", "integer").put("minimum", 1).put("maximum", 100);
            } else {
                schema.put("type", "string");
            }
        }
        if (!route.body().isEmpty()) {
            ObjectNode schema = operation.putObject("requestBody").put("required", route.bodyRequired())
                    .putObject("content")
                    .putObject("application/json").putObject("schema");
            schema.put("type", "object").put("additionalProperties", false);
            // Sorted by name: the document does not follow the order a contract happens to list its fields in.
            List<Field<?>> fields = route.fields().stream()
                    .sorted(Comparator.comparing(Field::name)).toList();
            List<String> required = fields.stream().filter(Field::isRequired)
                    .map(Field::name).toList();
            if (!required.isEmpty()) {
                required.forEach(schema.putArray("required")::add);
            }
            ObjectNode properties = schema.putObject("properties");
            fields.forEach(field -> properties.set(field.name(), field.schema()));
        }
        if (route.access().kind() == Access.Kind.READ_SIDE) {
            // Public unless the deployment makes the read side need a token: both are valid.
            operation.putArray("security").addObject();
            operation.withArray("security").addObject().putArray("bearer");
        } else {
            operation.putArray("security").addObject().putArray("bearer");
        }
        ObjectNode responses = operation.putObject("responses");
        ObjectNode success = responses.putObject(Integer.toString(route.status()));
        success.put("description", route.page() ? "a page of the list" : "the answer");
        if (route.returns() != null) {
            ObjectNode schema = success.putObject("content").putObject("application/json").putObject("schema");
            schema.setAll(route.page() ? schemas.page(route.returns()) : schemas.reference(route.returns()));
        }
        for (ErrorCode code : errors(route)) {
            responses.putObject(Integer.toString(code.status())).put("$ref", ERROR);
        }
        return operation;
    }

    /** The errors a route can answer: every route's, plus those its method and rule add. */
    private static List<ErrorCode> errors(Router.Description route) {
        List<ErrorCode> codes = new ArrayList<>(List.of(ErrorCode.BAD_REQUEST));
        if (route.access().kind() != Access.Kind.READ_SIDE) {
            codes.add(ErrorCode.UNAUTHORIZED);
            codes.add(ErrorCode.FORBIDDEN);
        }
        codes.add(ErrorCode.NOT_FOUND);
        if (!route.method().equals("GET")) {
            codes.add(ErrorCode.CONFLICT);
        }
        if (route.method().equals("PATCH")) {
            codes.add(ErrorCode.PRECONDITION_FAILED);
        }
        if (!route.body().isEmpty()) {
            codes.add(ErrorCode.PAYLOAD_TOO_LARGE);
        }
        codes.add(ErrorCode.INTERNAL);
        codes.add(ErrorCode.UNAVAILABLE);
        return codes;
    }

    /** {@code GET /users/{userId}/posts} is {@code getUsersUserIdPosts}. */
    static String operationId(Router.Description route) {
        StringBuilder id = new StringBuilder(route.method().toLowerCase(Locale.ROOT));
        for (String part : route.template().split("[/{}.:-]+")) {
            if (!part.isEmpty()) {
                id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return id.toString();
    }

    private static ObjectNode errorResponse(ObjectNode components) {
        ObjectNode response = Json.object();
        response.put("description", "an error: bad_request, validation_failed (400), unauthorized (401), forbidden "
                + "(403), not_found (404), conflict (409), precondition_failed (412), payload_too_large (413), internal "
                + "(500), unavailable (503, retry)");
        ObjectNode schema = response.putObject("content").putObject("application/json").putObject("schema");
        schema.put("type", "object");
        schema.putArray("required").add("error");
        ObjectNode error = schema.putObject("properties").putObject("error");
        error.put("type", "object");
        error.putArray("required").add("code").add("message");
        ObjectNode properties = error.putObject("properties");
        ArrayNode codes = properties.putObject("code").put("type", "string").putArray("enum");
        for (ErrorCode code : ErrorCode.values()) {
            codes.add(code.code());
        }
        properties.putObject("message").put("type", "string");
        properties.putObject("field").put("type", "string");
        return response;
    }
}
