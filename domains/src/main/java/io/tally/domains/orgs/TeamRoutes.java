package io.tally.domains.orgs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code POST} and {@code GET /orgs/{orgId}/teams}, {@code DELETE /orgs/{orgId}/teams/{teamId}} and
 * {@code GET /teams/{teamId}} (the reverse lookup).
 */
final class TeamRoutes {
    static final int NAME_MAX = 100;
    static final int DETAILS_MAX = 1_000;

    private final RouteContext context;
    private final OrgStore orgs;
    private final PartStore teams;

    TeamRoutes(RouteContext context, OrgStore orgs, PartStore teams) {
        this.context = context;
        this.orgs = orgs;
        this.teams = teams;
    }

    void register(Router router) {
        router.add("POST", "/orgs/{orgId}/teams", Access.ADMIN, this::create)
                .add("GET", "/orgs/{orgId}/teams", Access.ADMIN, this::list)
                .add("DELETE", "/orgs/{orgId}/teams/{teamId}", Access.ADMIN, this::delete)
                .add("GET", "/teams/{teamId}", Access.ADMIN, this::get);
    }

    ApiResponse create(ApiRequest request) {
        String orgId = request.id("orgId");
        Body body = Body.parse(request.body(), Set.of("teamId", "name", "details"));
        String teamId = body.optionalId("teamId");
        String name = body.requiredString("name", 1, NAME_MAX);
        String details = body.optionalString("details", 1, DETAILS_MAX);
        Team team = new Team(teamId == null ? context.ids().next() : teamId, orgId, name, details, context.now(),
                context.ids().next());
        teams.create(orgId, team.teamId(), team.toItem());
        return ApiResponse.created(OrgsJson.team(team), "/teams/" + team.teamId());
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(OrgsJson.team(Team.fromItem(teams.lookUp(request.id("teamId")))));
    }

    ApiResponse list(ApiRequest request) {
        String orgId = request.id("orgId");
        int limit = Page.limit(request);
        String scope = "teams:" + orgId;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), PartRequests.LIST_KEY);
        orgs.get(orgId);
        QueryPage page = teams.list(orgId, limit, start);
        List<ObjectNode> items = page.items().stream().map(item -> OrgsJson.team(Team.fromItem(item))).toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }

    /** 200 with the team as it was; its memberships are removed by the stream processor. */
    ApiResponse delete(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        return ApiResponse.ok(OrgsJson.team(Team.fromItem(teams.delete(orgId, teamId))));
    }
}
