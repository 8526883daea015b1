package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.testkit.UnreachableDynamoDb;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /dashboard} through the Lambda handler, as API Gateway calls it: the page and its files with their own
 * content types, never a DynamoDB call for them, nothing loaded from another origin, and the route list the page
 * decides its sections by.
 */
class DashboardTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final AtomicInteger dynamoDbCalls = new AtomicInteger();
    private final WriterHandler handler = new WriterHandler(new WriterApi(UnreachableDynamoDb.client(request -> {
        dynamoDbCalls.incrementAndGet();
        throw new IllegalStateException("the dashboard's files must not touch the table");
    }), "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET));

    private APIGatewayV2HTTPResponse get(String path) {
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withRawPath(path)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod("GET").build())
                        .build())
                .build();
        return handler.handleRequest(event, null);
    }

    @Test
    void page_isHtmlFromTheFunctionItself_andLoadsOnlyItsOwnFiles() {
        APIGatewayV2HTTPResponse page = get("/dashboard");

        assertThat(page.getStatusCode()).isEqualTo(200);
        assertThat(page.getHeaders()).containsEntry("Content-Type", "text/html; charset=utf-8");
        assertThat(page.getBody()).startsWith("<!doctype html>").contains("<title>Tally dashboard</title>");
        List<String> references = new ArrayList<>();
        Matcher matcher = Pattern.compile("(?:src|href)=\"([^\"]*)\"").matcher(page.getBody());
        while (matcher.find()) {
            references.add(matcher.group(1));
        }
        assertThat(references).isNotEmpty().allSatisfy(reference ->
                assertThat(reference).matches("/dashboard/[a-z]+\\.(js|css)|data:,"));
        references.stream().filter(reference -> reference.startsWith("/dashboard/")).forEach(reference ->
                assertThat(get(reference).getStatusCode()).as(reference).isEqualTo(200));
        assertThat(dynamoDbCalls).hasValue(0);
    }

    @Test
    void files_haveTheirContentTypes_andAnythingElseIsTheContractsNotFound() throws Exception {
        assertThat(get("/dashboard/dashboard.js").getHeaders()).containsEntry("Content-Type",
                "text/javascript; charset=utf-8");
        assertThat(get("/dashboard/dashboard.css").getHeaders()).containsEntry("Content-Type", "text/css; charset=utf-8");
        for (String path : List.of("/dashboard/other.js", "/dashboard/index.html", "/dashboard/..%2Fpom.xml")) {
            APIGatewayV2HTTPResponse response = get(path);
            assertThat(response.getStatusCode()).as(path).isEqualTo(404);
            assertThat(response.getHeaders()).containsEntry("Content-Type", "application/json");
            assertThat(JSON.readTree(response.getBody()).at("/error/code").asText()).isEqualTo("not_found");
        }
    }

    @Test
    void routeList_namesEveryReadRouteThePageMayUse_withItsTemplate() throws Exception {
        JsonNode body = JSON.readTree(get("/dashboard/routes.json").getBody());

        List<String> routes = new ArrayList<>();
        body.get("routes").forEach(route -> routes.add(route.asText()));
        assertThat(routes).contains("GET /stats/global", "GET /stats/orgs/{orgId}", "GET /selectors/{selector}",
                "GET /dashboard", "POST /users", "GET /charts/downloads/{month}",
                "GET /stats/users/{userId}/favourites", "GET /users/{userId}/favourites",
                "GET /users/{userId}/favourites/search", "POST /users/{userId}/tags");
        assertThat(dynamoDbCalls).hasValue(0);
    }
}
