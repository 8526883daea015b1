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
 * {@code PUT}, {@code DELETE /orgs/{orgId}/teams/{teamId}/members/{employeeId}}, {@code GET .../members} (a
 * team's memberships) and {@code GET /employees/{employeeId}/teams} (an employee's, through the reverse lookup).
 */
final class MembershipRoutes {
    static final int ROLE_MAX = 100;

    private final RouteContext context;
    private final PartStore teams;
    private final PartStore employees;
    private final MembershipStore memberships;

    MembershipRoutes(RouteContext context, PartStore teams, PartStore employees, MembershipStore memberships) {
        this.context = context;
        this.teams = teams;
        this.employees = employees;
        this.memberships = memberships;
    }

    void register(Router router) {
        router.add("PUT", "/orgs/{orgId}/teams/{teamId}/members/{employeeId}", Access.ADMIN, this::put)
                .add("DELETE", "/orgs/{orgId}/teams/{teamId}/members/{employeeId}", Access.ADMIN, this::delete)
                .add("GET", "/orgs/{orgId}/teams/{teamId}/members", Access.ADMIN, this::ofTeam)
                .add("GET", "/employees/{employeeId}/teams", Access.ADMIN, this::ofEmployee);
    }

    /** 201 when the employee joins the team, 200 when their role changes (the role is replaced, absent is null). */
    ApiResponse put(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        String employeeId = request.id("employeeId");
        Body body = Body.parse(request.body() == null || request.body().isBlank() ? "{}" : request.body(),
                Set.of("role"));
        String role = body.optionalString("role", 1, ROLE_MAX);
        Team team = Team.fromItem(teams.get(orgId, teamId));
        Employee employee = Employee.fromItem(employees.get(orgId, employeeId));
        MembershipStore.Put put = memberships.put(team, employee, role, context.now());
        ObjectNode json = OrgsJson.membership(put.membership());
        return put.created()
                ? ApiResponse.created(json, "/orgs/" + orgId + "/teams/" + teamId + "/members/" + employeeId)
                : ApiResponse.ok(json);
    }

    ApiResponse delete(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        String employeeId = request.id("employeeId");
        return ApiResponse.ok(OrgsJson.membership(memberships.delete(orgId, teamId, employeeId)));
    }

    ApiResponse ofTeam(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        int limit = Page.limit(request);
        String scope = "members:" + orgId + "/" + teamId;
        Map<String, AttributeValue> start = context.cursors().decode(scope, request.queryParameter("cursor"),
                MembershipRequests.TEAM_LIST_KEY);
        Team team = Team.fromItem(teams.get(orgId, teamId));
        return page(scope, memberships.ofTeam(team, limit, start));
    }

    ApiResponse ofEmployee(ApiRequest request) {
        String employeeId = request.id("employeeId");
        int limit = Page.limit(request);
        String scope = "teams-of:" + employeeId;
        Map<String, AttributeValue> start = context.cursors().decode(scope, request.queryParameter("cursor"),
                MembershipRequests.EMPLOYEE_LIST_KEY);
        Employee employee = Employee.fromItem(employees.lookUp(employeeId));
        return page(scope, memberships.ofEmployee(employee, limit, start));
    }

    private ApiResponse page(String scope, QueryPage page) {
        List<ObjectNode> items = page.items().stream()
                .map(item -> OrgsJson.membership(Membership.fromItem(item)))
                .toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }
}
