package io.tally.domains.orgs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Timestamps;
import io.tally.core.http.Json;
import io.tally.core.read.StatsJson;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The contract's JSON shapes of organisations, teams and employees, fields in the documented order. */
final class OrgsJson {
    private OrgsJson() {
    }

    static ObjectNode org(Organisation org) {
        ObjectNode json = Json.object();
        json.put("orgId", org.orgId());
        json.put("name", org.name());
        json.put("type", org.type());
        json.put("createdAt", Timestamps.format(org.createdAt()));
        json.put("updatedAt", Timestamps.format(org.updatedAt()));
        json.put("version", org.version());
        return json;
    }

    static ObjectNode team(io.tally.domains.orgs.Team team) {
        ObjectNode json = Json.object();
        json.put("teamId", team.teamId());
        json.put("orgId", team.orgId());
        json.put("name", team.name());
        json.put("details", team.details());
        json.put("createdAt", Timestamps.format(team.createdAt()));
        return json;
    }

    static ObjectNode employee(Employee employee) {
        ObjectNode json = Json.object();
        json.put("employeeId", employee.employeeId());
        json.put("orgId", employee.orgId());
        json.put("name", employee.name());
        json.put("email", employee.email());
        json.put("details", employee.details());
        json.put("createdAt", Timestamps.format(employee.createdAt()));
        return json;
    }

    static ObjectNode membership(Membership membership) {
        ObjectNode json = Json.object();
        json.put("orgId", membership.orgId());
        json.put("teamId", membership.teamId());
        json.put("employeeId", membership.employeeId());
        json.put("role", membership.role());
        json.put("addedAt", Timestamps.format(membership.addedAt()));
        return json;
    }

    /** {@code {"orgId", "teams", "employees", "memberships"}}; {@code item} is the OrgStats item or null. */
    static ObjectNode orgStats(String orgId, Map<String, AttributeValue> item) {
        StatsJson.check(item, Orgs.ORG_STATS.entityType());
        ObjectNode json = Json.object();
        json.put("orgId", orgId);
        for (String counter : Orgs.ORG_STATS.counters()) {
            json.put(counter, StatsJson.counter(item, counter));
        }
        return json;
    }

    /** {@code {"teamId", "orgId", "members"}}; {@code item} is the TeamStats item or null. */
    static ObjectNode teamStats(String teamId, String orgId, Map<String, AttributeValue> item) {
        StatsJson.check(item, Orgs.TEAM_STATS.entityType());
        ObjectNode json = Json.object();
        json.put("teamId", teamId);
        json.put("orgId", orgId);
        for (String counter : Orgs.TEAM_STATS.counters()) {
            json.put(counter, StatsJson.counter(item, counter));
        }
        return json;
    }
}
