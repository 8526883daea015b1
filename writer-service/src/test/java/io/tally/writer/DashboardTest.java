package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.SharedCounter;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.Access;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import io.tally.testkit.UnreachableDynamoDb;
import io.tally.writer.dashboard.DashboardRoutes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /dashboard} through the Lambda handler, as API Gateway calls it: the page and its files with their own
 * content types, never a DynamoDB call for them, nothing loaded from another origin, the route list the page
 * decides its sections by, and the sections the domains declare.
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

    @Test
    void sections_areTheDomainsDeclarations_inTheRegistrysOrder() throws Exception {
        APIGatewayV2HTTPResponse response = get("/dashboard/sections.json");

        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getHeaders()).containsEntry("Content-Type", "application/json");
        JsonNode sections = JSON.readTree(response.getBody()).get("sections");
        List<String> placed = new ArrayList<>();
        sections.forEach(section -> placed.add(section.get("domain").asText() + ":" + section.get("id").asText()));
        assertThat(placed).containsExactly("users:totals", "blog:totals", "blog:posts", "catalogue:totals",
                "catalogue:selectors", "orgs:totals", "orgs:orgs", "songs:totals", "songs:top-songs",
                "songs:downloads", "favourites:totals");
        // The whole shape of a few: what the page draws them from.
        assertThat(sections.get(0)).isEqualTo(JSON.readTree("""
                {"domain": "users", "kind": "totals", "id": "totals", "title": "Totals", "route": "GET /stats/global",
                 "path": "/stats/global", "figures": [{"label": "Users", "figure": "global.users", "sum": ["users"]}]}
                """));
        assertThat(sections.get(1).get("figures").get(0)).isEqualTo(JSON.readTree("""
                {"label": "Posts (not deleted)", "figure": "global.posts.live", "sum": ["posts.created", "posts.updated"]}
                """));
        assertThat(sections.get(2).get("figures").get(2)).isEqualTo(JSON.readTree("""
                {"label": "deleted", "figure": "global.posts.deleted", "sum": ["posts.deleted"], "color": "#9aa5b1"}
                """));
        assertThat(sections.get(4)).isEqualTo(JSON.readTree("""
                {"domain": "catalogue", "kind": "tables", "id": "selectors", "title": "Selector leaderboards",
                 "route": "GET /selectors/{selector}", "path": "/selectors/{selector}?limit=5",
                 "each": {"placeholder": "selector", "parameter": "selectors",
                          "defaults": ["back-catalogue", "global-cycle:5"], "seenInFeeds": false},
                 "rows": {"items": "items", "value": "score", "label": ["{title} ({itemId})", "{itemId}"],
                          "figure": "selector.{selector}.{itemId}", "columns": ["Item", "Score"]},
                 "hint": "Other selectors: `/dashboard?selectors=back-catalogue,global-cycle:5`"}
                """));
        assertThat(sections.get(6)).isEqualTo(JSON.readTree("""
                {"domain": "orgs", "kind": "bars", "id": "orgs", "title": "Organisations: head counts",
                 "route": "GET /stats/orgs/{orgId}", "path": "/stats/orgs/{orgId}",
                 "each": {"placeholder": "orgId", "parameter": "orgs", "defaults": [], "seenInFeeds": true},
                 "rows": {"value": "employees", "label": ["{orgId} ({teams} teams)"], "figure": "orgs.{orgId}.employees"},
                 "color": "#d9822b",
                 "hint": "No read route lists organisations: the dashboard shows those named in the address (`/dashboard?orgs=abc`) and those it has seen in the activity feed."}
                """));
        assertThat(sections.get(8)).isEqualTo(JSON.readTree("""
                {"domain": "songs", "kind": "bars", "id": "top-songs", "title": "Top songs, {month}",
                 "route": "GET /charts/downloads/{month}", "path": "/charts/downloads/{month}?limit=10",
                 "rows": {"items": "items", "value": "downloads", "label": ["{title}", "{songId}"],
                          "figure": "songs.top.{songId}"},
                 "color": "#8a5cd6"}
                """));
        assertThat(sections.get(9)).isEqualTo(JSON.readTree("""
                {"domain": "songs", "kind": "days", "id": "downloads", "title": "Downloads per day, last 30 days",
                 "route": "GET /stats/downloads/days", "path": "/stats/downloads/days?from={from}&to={to}",
                 "rows": {"items": "days", "value": "downloads", "label": ["{day}"]}, "color": "#13a383"}
                """));
        assertThat(dynamoDbCalls).hasValue(0);
    }

    @Test
    void everySection_readsAReadSideRouteTheWriterHas_andTheTotalsShowEveryGlobalCounter() throws Exception {
        WriterApi api = new WriterApi(UnreachableDynamoDb.client(request -> {
            throw new IllegalStateException("listing the routes must not touch the table");
        }), "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET, io.tally.core.ShardSettings.DEFAULTS,
                "tally-activity", io.tally.core.http.Authorization.required(true));
        Set<String> readSide = new LinkedHashSet<>();
        api.routeRules().stream().filter(rule -> rule.access().kind() == Access.Kind.READ_SIDE)
                .forEach(rule -> readSide.add(rule.method() + " " + rule.template()));
        DomainRegistry registry = DomainRegistry.load();
        Set<String> globalFields = new LinkedHashSet<>();
        for (Domain domain : registry.domains()) {
            for (DashboardSection section : domain.dashboard()) {
                assertThat(readSide).as("%s of %s", section.id(), domain.name()).contains(section.route());
                if (section.path().equals("/stats/global")) {
                    section.figures().forEach(figure -> globalFields.addAll(figure.sum()));
                }
            }
        }
        // Each number of GET /stats/global is on the page: its own tile, or a bar (the posts by status).
        assertThat(globalFields).containsExactlyInAnyOrderElementsOf(registry.sharedCounters(Users.GLOBAL_STATS)
                .stream().map(SharedCounter::path).map(path -> String.join(".", path)).toList());
    }

    @Test
    void aSectionTakingAnotherSectionsIdOrThePagesOwn_failsTheStart() {
        Domain first = domain("first", DashboardSection.days("downloads", "A", "/a", DashboardSection.Rows.of("days",
                "n", "{day}"), "#000000"));
        Domain second = domain("second", DashboardSection.days("downloads", "B", "/b", DashboardSection.Rows.of("days",
                "n", "{day}"), "#000000"));
        Assertions.assertThatThrownBy(() -> DashboardRoutes.register(new Router(),
                        DomainRegistry.of(new UsersDomain(), first, second)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("domain 'second': the id 'downloads' of its dashboard section is taken by a section of the "
                        + "domain 'first'");
        Domain page = domain("page", DashboardSection.days("pipeline", "P", "/p", DashboardSection.Rows.of("days",
                "n", "{day}"), "#000000"));
        Assertions.assertThatThrownBy(() -> DashboardRoutes.register(new Router(),
                        DomainRegistry.of(new UsersDomain(), page)))
                .hasMessage("domain 'page': the id 'pipeline' of its dashboard section is the id of one of the page's own parts");
        // Tiles of every domain share the one Totals card.
        Domain tiles = domain("tiles", DashboardSection.totals("/stats/global",
                DashboardSection.Figure.tile("More", "global.more", "more")));
        DashboardRoutes.register(new Router(), DomainRegistry.of(new UsersDomain(), tiles));
    }

    @Test
    void aSection_isDataThePageCanDraw() {
        Assertions.assertThatThrownBy(() -> DashboardSection.bars("Top", "Top", "/charts/x",
                        DashboardSection.Rows.of("items", "n", "{id}"), "#000000"))
                .hasMessageContaining("lower-case word");
        Assertions.assertThatThrownBy(() -> DashboardSection.bars("top", "Top", "charts/x",
                        DashboardSection.Rows.of("items", "n", "{id}"), "#000000"))
                .hasMessageContaining("path of a read route");
        Assertions.assertThatThrownBy(() -> DashboardSection.bars("top", "Top", "/charts/x",
                        DashboardSection.Rows.of("items", "n", "{id}"), "purple"))
                .hasMessageContaining("#rrggbb");
        Assertions.assertThatThrownBy(() -> DashboardSection.totals("/stats/global"))
                .hasMessageContaining("tiles are figures");
        Assertions.assertThatThrownBy(() -> DashboardSection.bars("orgs", "Orgs", "/stats/orgs/{orgId}",
                        DashboardSection.Rows.ofAnswers("employees", "{orgId}"), "#000000"))
                .hasMessageContaining("one row an answer");
        assertThat(DashboardSection.bars("top", "Top", "/charts/{month}?limit=10&x=1",
                DashboardSection.Rows.of("items", "n", "{id}"), null).route()).isEqualTo("GET /charts/{month}");
    }

    private static Domain domain(String name, DashboardSection... sections) {
        return new Domain() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<String> requires() {
                return List.of(UsersDomain.NAME);
            }

            @Override
            public List<DashboardSection> dashboard() {
                return List.of(sections);
            }
        };
    }
}
