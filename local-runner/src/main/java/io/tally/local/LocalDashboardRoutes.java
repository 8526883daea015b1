package io.tally.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * {@code GET /dashboard/routes.json} on the local front: the writer function's route list plus the local routes
 * (such as {@code GET /events} and {@code GET /metrics}), so that the dashboard shows the pipeline's health and the
 * newest events here and, on AWS, where those routes do not exist, leaves their sections out.
 */
final class LocalDashboardRoutes implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    static final String PATH = "/dashboard/routes.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> writer;
    private final List<String> localRoutes;

    /** @param localRoutes routes as {@code METHOD /path}, e.g. {@code GET /events} */
    LocalDashboardRoutes(RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> writer,
            List<String> localRoutes) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.localRoutes = List.copyOf(localRoutes);
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        APIGatewayV2HTTPResponse response = writer.handleRequest(event, context);
        if (response.getStatusCode() != 200) {
            return response;
        }
        try {
            JsonNode body = JSON.readTree(response.getBody());
            localRoutes.forEach(((ArrayNode) body.get("routes"))::add);
            response.setBody(JSON.writeValueAsString(body));
            return response;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException("the writer's route list is not JSON", e);
        }
    }
}
