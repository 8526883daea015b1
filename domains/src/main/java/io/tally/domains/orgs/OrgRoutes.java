package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.domain.EntityResource;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import io.tally.core.read.StatsJson;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code POST /orgs}, {@code GET} and {@code PATCH /orgs/{orgId}} ({@link #RESOURCE}), and {@code GET
 * /stats/teams/{teamId}} (derived items only, eventually consistent; {@code GET /stats/orgs/{orgId}} is its view's,
 * {@link OrgFigures#ORG}).
 */
record OrgRoutes(OrgStore orgs) {
    static final int NAME_MAX = 100;
    static final int TYPE_MAX = 100;
    private static final Field<String> ORG_ID = Field.id("orgId");
    private static final Field<String> NAME = Field.string(Organisation.NAME, 1, NAME_MAX);
    private static final Field<String> TYPE = Field.string(Organisation.TYPE, 1, TYPE_MAX);

    /** Organisations: created with an id the body gives or a new one, changed under {@code If-Match}, never deleted. */
    static final EntityResource<Organisation> RESOURCE = EntityResource.at("/orgs/{orgId}", Organisation.SCHEMA,
                    ids -> OrgKeys.organisation(ids.get("orgId"))).named("organisation")
            .post(Access.ADMIN, "Create an organisation", Fields.of(ORG_ID, NAME.required(), TYPE),
                    (ids, body, context) -> {
                        Instant now = context.now();
                        return new Organisation(ids.get("orgId"), body.get(NAME), body.get(TYPE), now, now, 1);
                    })
            .get(Access.ADMIN, "An organisation")
            .patch(Access.ADMIN, "Change an organisation's name or type (If-Match: its version)",
                    Fields.of(NAME, TYPE));

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
        router.add("GET", "/stats/teams/{teamId}", Access.READ_SIDE, this::teamStats)
                .summary("A team's members").returns(200, TeamStats.class);
    }

    ApiResponse teamStats(ApiRequest request) {
        String teamId = request.id("teamId");
        OrgStore.TeamStatsItem stats = orgs.teamStats(teamId);
        return ApiResponse.ok(TeamStats.of(teamId, stats.orgId(), stats.item()));
    }
}
