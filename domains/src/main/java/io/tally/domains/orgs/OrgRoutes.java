package io.tally.domains.orgs;

import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.IfMatch;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.Set;

/**
 * {@code POST /orgs}, {@code GET} and {@code PATCH /orgs/{orgId}}, and the domain's read side:
 * {@code GET /stats/orgs/{orgId}} and {@code GET /stats/teams/{teamId}} (derived items only, eventually consistent).
 */
final class OrgRoutes {
    static final int NAME_MAX = 100;
    static final int TYPE_MAX = 100;

    private final RouteContext context;
    private final OrgStore orgs;

    OrgRoutes(RouteContext context, OrgStore orgs) {
        this.context = context;
        this.orgs = orgs;
    }

    void register(Router router) {
        router.add("POST", "/orgs", Access.ADMIN, this::create)
                .add("GET", "/orgs/{orgId}", Access.ADMIN, this::get)
                .add("PATCH", "/orgs/{orgId}", Access.ADMIN, this::update)
                .add("GET", "/stats/orgs/{orgId}", Access.READ_SIDE, this::orgStats)
                .add("GET", "/stats/teams/{teamId}", Access.READ_SIDE, this::teamStats);
    }

    ApiResponse create(ApiRequest request) {
        Body body = Body.parse(request.body(), Set.of("orgId", "name", "type"));
        String orgId = body.optionalId("orgId");
        String name = body.requiredString("name", 1, NAME_MAX);
        String type = body.optionalString("type", 1, TYPE_MAX);
        Instant now = context.now();
        Organisation org = new Organisation(orgId == null ? context.ids().next() : orgId, name, type, now, now, 1);
        orgs.create(org);
        return ApiResponse.created(OrgsJson.org(org), "/orgs/" + org.orgId()).withETag(org.version());
    }

    ApiResponse get(ApiRequest request) {
        Organisation org = orgs.get(request.id("orgId"));
        return ApiResponse.ok(OrgsJson.org(org)).withETag(org.version());
    }

    ApiResponse update(ApiRequest request) {
        String orgId = request.id("orgId");
        IfMatch ifMatch = request.ifMatch();
        Body body = Body.parse(request.body(), Set.of("name", "type"));
        String name = body.optionalString("name", 1, NAME_MAX);
        String type = body.optionalString("type", 1, TYPE_MAX);
        if (name == null && type == null) {
            throw ApiException.validation(null, "nothing to change: give name or type");
        }
        Organisation org = orgs.update(orgId, name, type, context.now(), ifMatch);
        return ApiResponse.ok(OrgsJson.org(org)).withETag(org.version());
    }

    ApiResponse orgStats(ApiRequest request) {
        String orgId = request.id("orgId");
        return ApiResponse.ok(OrgsJson.orgStats(orgId, orgs.orgStats(orgId)));
    }

    ApiResponse teamStats(ApiRequest request) {
        String teamId = request.id("teamId");
        OrgStore.TeamStats stats = orgs.teamStats(teamId);
        return ApiResponse.ok(OrgsJson.teamStats(teamId, stats.orgId(), stats.item()));
    }
}
