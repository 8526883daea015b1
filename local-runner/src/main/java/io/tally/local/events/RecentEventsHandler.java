package io.tally.local.events;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.events.PublicEvents;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Caller;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code GET /events?limit=N}: the newest events the local bus accepted, newest first, each with the rules it
 * matched, as {@code {"items": [{"rules": [...], "event": {...}}, ...]}}. Errors have the writer contract's shape.
 *
 * <p>A handler of API Gateway's events, so that the runner's HTTP front can serve it beside the writer API.
 */
final class RecentEventsHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 1000;
    /** Digits only: no sign, no spaces, no "1,2" from a repeated parameter; the range is checked after. */
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

    private final RecentEvents recent;
    /** With access control: what a caller who is not an admin may see (null: every event, to everyone). */
    private final PublicEvents publicOnly;

    RecentEventsHandler(RecentEvents recent) {
        this(recent, null);
    }

    /**
     * With access control ({@code --auth}): an admin (verified claims in the event, as the JWT authorizer puts them)
     * sees every event; anyone else only the public ones, each detail cut to its public fields, as {@code /activity}'s
     * public feed shows them.
     */
    RecentEventsHandler(RecentEvents recent, PublicEvents publicOnly) {
        this.recent = recent;
        this.publicOnly = publicOnly;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = event.getRequestContext() == null || event.getRequestContext().getHttp() == null
                ? "GET" : event.getRequestContext().getHttp().getMethod();
        if (!"GET".equalsIgnoreCase(method) && !"HEAD".equalsIgnoreCase(method)) {
            return respond(ApiResponse.error(ErrorCode.METHOD_NOT_ALLOWED,
                    method + " is not allowed here; allowed: GET", null).withHeader("Allow", "GET, HEAD"));
        }
        String limit = event.getQueryStringParameters() == null ? null : event.getQueryStringParameters().get("limit");
        int count;
        if (limit == null) {
            count = DEFAULT_LIMIT;
        } else if (DIGITS.matcher(limit).matches()
                && Integer.parseInt(limit) >= 1 && Integer.parseInt(limit) <= MAX_LIMIT) {
            count = Integer.parseInt(limit);
        } else {
            return respond(ApiResponse.error(ErrorCode.BAD_REQUEST,
                    "limit must be an integer from 1 to " + MAX_LIMIT, "limit"));
        }
        ObjectNode body = Json.object();
        ArrayNode items = body.putArray("items");
        boolean everything = publicOnly == null || isAdmin(event);
        for (MatchedEvent matched : recent.newest(count)) {
            JsonNode shown = everything ? matched.event() : shownPublicly(matched.event());
            if (shown == null) {
                continue;
            }
            ObjectNode item = items.addObject();
            ArrayNode rules = item.putArray("rules");
            matched.rules().forEach(rules::add);
            item.set("event", shown);
        }
        return respond(ApiResponse.ok(body).withHeader("Cache-Control", "no-store"));
    }

    /** The event as a public feed shows it (its detail cut to the public fields), or null when it is not public. */
    private JsonNode shownPublicly(JsonNode event) {
        String detailType = event.path("detail-type").asText(null);
        return publicOnly.publicDetail(detailType, event.get("detail")).<JsonNode>map(detail -> {
            ObjectNode copy = event.deepCopy();
            copy.set("detail", detail);
            return copy;
        }).orElse(null);
    }

    private static boolean isAdmin(APIGatewayV2HTTPEvent event) {
        APIGatewayV2HTTPEvent.RequestContext context = event.getRequestContext();
        if (context == null || context.getAuthorizer() == null || context.getAuthorizer().getJwt() == null) {
            return false;
        }
        return Caller.fromClaims(context.getAuthorizer().getJwt().getClaims(),
                context.getAuthorizer().getJwt().getScopes()).isAdmin();
    }

    private static APIGatewayV2HTTPResponse respond(ApiResponse response) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.putAll(response.headers());
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(response.status())
                .withHeaders(headers)
                .withBody(Json.write(response.body()))
                .withIsBase64Encoded(false)
                .build();
    }
}
