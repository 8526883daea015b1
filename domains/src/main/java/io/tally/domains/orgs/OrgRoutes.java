package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.IfMatch;
import io.tally.core.http.Router;
import io.tally.core.read.StatsJson;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code POST /orgs}, {@code GET} and {@code PATCH /orgs/{orgId}}, and {@code GET /stats/teams/{teamId}} (derived
 * items only, eventually consistent; {@code GET /stats/orgs/{orgId}} is its view's, {@link OrgFigures#ORG}).
 */
record OrgRoutes(RouteContext context, OrgStore orgs) {
    static final int NAME_MAX = 100;
    static final int TYPE_MAX = 100;
    private static final Field<String> ORG_ID = Field.id("orgId");
    private static final Field<String> NAME = Field.string("name", 1, NAME_MAX);
    private static final Field<String> TYPE = Field.string("type", 1, TYPE_MAX);
    /** The bodies of {@code POST /orgs} and {@code PATCH /orgs/{orgId}}. */
    private static final Fields CREATE = Fields.of(ORG_ID, NAME.required(), TYPE);
    private static final Fields UPDATE = Fields.of(NAME, TYPE);

    /** {@code GET /stats/teams/{teamId}}: the counter of {@link OrgFigures#TEAM}, and the team's organisation. */
    @JsonPropertyOrder({"teamId", "orgId", Orgs.TEAM_MEMBERS})
    record TeamStats(String teamId, String orgId, long members) {
        /** {@code item} is the TeamStats item, or null when nothing is counted yet. */
        static TeamStats of(String teamId, String orgId, Map<String, AttributeValue> item) {
            StatsJson.check(item, OrgFigures.TEAM.type().entityType());
            return new TeamStats(teamId, orgId, StatsJson.counter(item, Orgs.TEAM_MEMBERS));
        }
    }

    void register(Router router) {
        router.add("POST", "/orgs", Access.ADMIN, this::create).summary("Create an organisation").body(CREATE)
                    .returns(201, Organisation.class)
                .add("GET", "/orgs/{orgId}", Access.ADMIN, this::get).summary("An organisation")
                    .returns(200, Organisation.class)
                .add("PATCH", "/orgs/{orgId}", Access.ADMIN, this::update)
                    .summary("Change an organisation's name or type (If-Match: its version)").body(UPDATE)
                    .returns(200, Organisation.class)
                .add("GET", "/stats/teams/{teamId}", Access.READ_SIDE, this::teamStats)
                    .summary("A team's members").returns(200, TeamStats.class);
    }

    ApiResponse create(ApiRequest request) {
        Body body = Body.parse(request.body(), CREATE);
        String orgId = body.get(ORG_ID);
        String name = body.get(NAME);
        String type = body.get(TYPE);
        Instant now = context.now();
        Organisation org = new Organisation(context.idOrNew(orgId), name, type, now, now, 1);
        orgs.create(org);
        return ApiResponse.created(org, "/orgs/" + org.orgId()).withETag(org.version());
    }

    ApiResponse get(ApiRequest request) {
        Organisation org = orgs.get(request.id("orgId"));
        return ApiResponse.ok(org).withETag(org.version());
    }

    ApiResponse update(ApiRequest request) {
        String orgId = request.id("orgId");
        IfMatch ifMatch = request.ifMatch();
        Body body = Body.parse(request.body(), UPDATE);
        String name = body.get(NAME);
        String type = body.get(TYPE);
        if (name == null && type == null) {
            throw ApiException.validation(null, "nothing to change: give name or type");
        }
        Organisation org = orgs.update(orgId, name, type, context.now(), ifMatch);
        return ApiResponse.ok(org).withETag(org.version());
    }

    ApiResponse teamStats(ApiRequest request) {
        String teamId = request.id("teamId");
        OrgStore.TeamStatsItem stats = orgs.teamStats(teamId);
        return ApiResponse.ok(TeamStats.of(teamId, stats.orgId(), stats.item()));
    }
}
